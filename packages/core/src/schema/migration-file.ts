/**
 * schema/migration-file: a migration as a file a team reviews and commits
 * (`dbschema/migrations/00002-<id>.edgeql`, made by `svc migration create`, applied in order by
 * `svc migrate`).
 *
 * A migration is its parent (the migration it applies onto, or none for the first), the schema
 * it migrates to (SDL, verbatim), and what two schemas cannot say: renames and fill expressions
 * (MigrationHints). Its id is a hash of exactly those, so a file whose content was changed after
 * it was made no longer matches its id and is refused, and a file made onto another parent is
 * another migration. The steps the planner made are written above it as comments, for review;
 * they are not part of the id (the plan is made again when the file is applied, from the stored
 * schema).
 *
 * The text, one statement a line, then the schema verbatim up to the file's last `};`:
 *
 *     # comments (the steps, and how to use the file)
 *     create migration m1<hex> onto initial;           -- or: onto m1<hex>
 *     rename type default::User to default::Person;
 *     rename default::Person.bio to about;
 *     fill default::Person.handle := str_lower(.name);
 *     schema to {
 *     module default { ... }
 *     };
 *
 * `formatVersion` 1. A later release reads every earlier version (a file written by one release
 * is applied by the next); it writes the newest. The contract is a fixture, not this comment:
 * packages/cli/test/fixtures/migrations-format-1 holds files written once by the first release's
 * `svc migration create` and frozen (a type and a property renamed, a fill), and
 * packages/cli/test/migration-compat.test.ts applies them on both engines and checks the data.
 * A change here that breaks them breaks every project's committed migrations: never regenerate
 * the fixture; a new format keeps reading the old one and gets a fixture of its own.
 * Pure.
 */
import { createHash } from 'node:crypto';
import { MigrationError } from '../errors';
import type { MigrationHints, MigrationRename } from '../model/migration';

export interface MigrationFile {
  /** `m1` and 64 hex digits: the hash of parent, renames, fills and SDL. */
  readonly id: string;
  /** The id of the migration it applies onto; null for the first. */
  readonly parent: string | null;
  readonly renames: readonly MigrationRename[];
  /** By subject (`default::User.handle`), in the order written. */
  readonly fills: Readonly<Record<string, string>>;
  readonly sdl: string;
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*';
const POINTER = '[A-Za-z_][A-Za-z0-9_]*';

/** The id a migration with these parts has. */
export function migrationId(parent: string | null, hints: MigrationHints, sdl: string): string {
  const canonical = JSON.stringify({
    formatVersion: 1,
    parent,
    renames: (hints.renames ?? []).map((r) =>
      r.kind === 'type' ? ['type', r.from, r.to] : ['pointer', r.type, r.from, r.to],
    ),
    fills: Object.entries(hints.fills ?? {}),
    sdl,
  });
  return `m1${createHash('sha256').update(canonical).digest('hex')}`;
}

/** A new migration onto `parent`: its id computed. */
export function makeMigration(
  parent: string | null,
  hints: MigrationHints,
  sdl: string,
): MigrationFile {
  const renames = hints.renames ?? [];
  const fills = Object.fromEntries(
    Object.entries(hints.fills ?? {}).map(([subject, expr]) => [subject, expr.trim()]),
  );
  for (const [subject, expr] of Object.entries(fills)) {
    if (/[\r\n]/.test(expr))
      throw new MigrationError(`the fill expression for ${subject} must be on one line`);
  }
  // Line ends and trailing blank lines are not the schema's content: a checkout with CRLF reads
  // back to the same id.
  const text = sdl.replace(/\r\n/g, '\n').replace(/\s*$/, '\n');
  return { id: migrationId(parent, { renames, fills }, text), parent, renames, fills, sdl: text };
}

/** The file's name in `dbschema/migrations/`: its number, then the start of its id. */
export function migrationFileName(number: number, id: string): string {
  return `${String(number).padStart(5, '0')}-${id.slice(2, 14)}.edgeql`;
}

/** The file's text: `comments` (each a line, e.g. the steps) above the statements. */
export function renderMigrationFile(m: MigrationFile, comments: readonly string[] = []): string {
  const lines = comments.map((c) => (c ? `# ${c}` : '#'));
  if (lines.length) lines.push('');
  lines.push(`create migration ${m.id} onto ${m.parent ?? 'initial'};`);
  for (const r of m.renames) {
    lines.push(
      r.kind === 'type'
        ? `rename type ${r.from} to ${r.to};`
        : `rename ${r.type}.${r.from} to ${r.to};`,
    );
  }
  for (const [subject, expr] of Object.entries(m.fills)) lines.push(`fill ${subject} := ${expr};`);
  lines.push('schema to {', m.sdl.replace(/\n$/, ''), '};', '');
  return lines.join('\n');
}

/**
 * A file's text → the migration, its id checked against its content. `file` names it in errors.
 * Throws MigrationError naming the line for text it cannot read, and for an id that does not
 * match (the file was edited after it was made).
 */
export function parseMigrationFile(text: string, file: string): MigrationFile {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const fail = (line: number, message: string): never => {
    throw new MigrationError(`${file}:${line}: ${message}`, {
      hint: 'migration files are made by `svc migration create`; make a new one rather than editing one',
    });
  };
  let i = 0;
  const next = (): string | null => {
    while (i < lines.length) {
      const line = (lines[i] as string).trim();
      i++;
      if (line === '' || line.startsWith('#')) continue;
      return line;
    }
    return null;
  };
  const head = next();
  const headMatch = head?.match(
    /^create migration (m1[0-9a-f]{64}) onto (initial|m1[0-9a-f]{64});$/,
  );
  if (!headMatch) return fail(i, 'expected `create migration <id> onto <parent | initial>;`');
  const [, id = '', onto = ''] = headMatch;
  const renames: MigrationRename[] = [];
  const fills: Record<string, string> = {};
  let sdl: string | null = null;
  for (let line = next(); line !== null; line = next()) {
    const type = line.match(new RegExp(`^rename type (${NAME}) to (${NAME});$`));
    const pointer = line.match(new RegExp(`^rename (${NAME})\\.(${POINTER}) to (${POINTER});$`));
    const fill = line.match(new RegExp(`^fill (${NAME}\\.${POINTER}) := (.+);$`));
    if (type) renames.push({ kind: 'type', from: type[1] as string, to: type[2] as string });
    else if (pointer)
      renames.push({
        kind: 'pointer',
        type: pointer[1] as string,
        from: pointer[2] as string,
        to: pointer[3] as string,
      });
    else if (fill) fills[fill[1] as string] = fill[2] as string;
    else if (line === 'schema to {') {
      const rest = lines.slice(i);
      let end = rest.length - 1;
      while (end >= 0 && (rest[end] as string).trim() === '') end--;
      if ((rest[end] ?? '').trim() !== '};')
        return fail(lines.length, 'the schema must end with `};`');
      sdl = `${rest.slice(0, end).join('\n')}\n`;
      break;
    } else return fail(i, `cannot read \`${line}\``);
  }
  if (sdl === null) return fail(lines.length, 'expected `schema to { ... };`');
  const parent = onto === 'initial' ? null : onto;
  const m: MigrationFile = { id, parent, renames, fills, sdl };
  if (migrationId(parent, m, sdl) !== id) {
    throw new MigrationError(
      `${file}: its content does not match its id ${id.slice(0, 14)}: it was changed after it was made`,
      {
        hint: 'restore the file as it was made (git checkout), then change the schema and run `svc migration create`',
      },
    );
  }
  return m;
}

/**
 * Files in their order (by name) → the migrations, each checked to apply onto the one before
 * (the first onto none). Throws MigrationError naming the file that breaks the chain.
 */
export function migrationChain(files: readonly { name: string; text: string }[]): MigrationFile[] {
  const out: MigrationFile[] = [];
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) {
    const m = parseMigrationFile(f.text, f.name);
    const expected = out.at(-1)?.id ?? null;
    if (m.parent !== expected) {
      throw new MigrationError(
        `${f.name} applies onto ${m.parent?.slice(0, 14) ?? 'nothing'}, but the migration before it is ${expected?.slice(0, 14) ?? 'none'}`,
        {
          hint: 'two migrations were made onto the same parent (a merge of two branches?): remove the later one and run `svc migration create` again',
        },
      );
    }
    out.push(m);
  }
  return out;
}
