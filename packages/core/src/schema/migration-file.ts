/**
 * schema/migration-file: a migration as a file a team reviews and commits
 * (`dbschema/migrations/00002-<id>.edgeql`, made by `svc migration create`, applied in order by
 * `svc migrate`).
 *
 * A migration is its parent (the migration it applies onto, or none for the first) and the EdgeQL
 * DDL that edits the parent's schema into its own, as Gel writes them:
 *
 *     # comments (the steps the planner made, and how to use the file)
 *     create migration m1<hex>
 *         onto m1<hex>                               -- or: onto initial
 *     {
 *         alter type default::User {
 *             alter property bio {
 *                 rename to about;
 *             };
 *             create property handle: std::str;
 *             alter property handle {
 *                 set required using (str_lower(.name));
 *             };
 *         };
 *     };
 *
 * The DDL says what two schemas cannot (renames are `rename to`, fills are the `using` of `set
 * required` and `set type`); ./ddl applies it to the parent's schema, which gives this
 * migration's schema and its MigrationHints. Its id is a hash of its parent and its DDL as
 * printed (so a reformatted file keeps its id, and a changed one does not match it and is
 * refused); a file made onto another parent is another migration.
 *
 * Versions. Format 2 is the DDL above. Format 1 (the first release's) held the target SDL
 * verbatim with `rename` and `fill` lines: `create migration <id> onto <parent>;` on one line, then
 * `rename type A to B;`, `rename T.a to b;`, `fill T.p := expr;`, then `schema to { SDL };`. A
 * later release reads every earlier version (a file written by one release is applied by the
 * next) and writes the newest. The contract is a fixture per version, not this comment:
 * packages/cli/test/fixtures/migrations-format-N hold files written once by that release's `svc
 * migration create` and frozen, and packages/cli/test/migration-compat.test.ts applies them on
 * both engines and checks the data. Never regenerate a fixture.
 * Pure.
 */
import { createHash } from 'node:crypto';
import { MigrationError, SchemaSyntaxError } from '../errors';
import type { MigrationHints, MigrationRename } from '../model/migration';
import * as ql from '../syntax';
import { buildSchema } from './build';
import { applyDdl, generateDdl, pointerKindsOf } from './ddl';

/** A migration as its chain of files gives it: with the schema it migrates to. */
export interface MigrationFile {
  /** `m1` and 64 hex digits: the hash of its parent and its content. */
  readonly id: string;
  /** The id of the migration it applies onto; null for the first. */
  readonly parent: string | null;
  /** The file's format (see above). */
  readonly format: 1 | 2;
  /** Format 2: its DDL, as printed (without the `create migration` around it). */
  readonly ddl: string | null;
  /** What its DDL says (format 2) or its lines say (format 1). */
  readonly renames: readonly MigrationRename[];
  /** By subject (`default::User.handle`), in the order written. */
  readonly fills: Readonly<Record<string, string>>;
  /** The schema it migrates to. */
  readonly sdl: string;
}

/** A migration as one file says it, before the files before it give it a schema. */
type WrittenMigration =
  | (Omit<MigrationFile, 'ddl'> & { readonly format: 1; readonly ddl: null })
  | {
      readonly format: 2;
      readonly id: string;
      readonly parent: string | null;
      readonly commands: readonly ql.DdlCommand[];
    };

const NAME = '[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*';
const POINTER = '[A-Za-z_][A-Za-z0-9_]*';
const ID = 'm1[0-9a-f]{64}';

function hash(canonical: unknown): string {
  return `m1${createHash('sha256').update(JSON.stringify(canonical)).digest('hex')}`;
}

/** The id of a format-2 migration: its parent and its DDL as printed. */
function ddlMigrationId(parent: string | null, ddl: string): string {
  return hash({ formatVersion: 2, parent, ddl });
}

/** The id of a format-1 migration (read, never written any more). */
function sdlMigrationId(parent: string | null, hints: MigrationHints, sdl: string): string {
  return hash({
    formatVersion: 1,
    parent,
    renames: (hints.renames ?? []).map((r) =>
      r.kind === 'type' ? ['type', r.from, r.to] : ['pointer', r.type, r.from, r.to],
    ),
    fills: Object.entries(hints.fills ?? {}),
    sdl,
  });
}

/**
 * The next migration onto `parent` (the last of the chain; null for the first), to the schema
 * `sdl`: the DDL between the two, with `hints`' renames and fills in it, each pointer spelled
 * `property` or `link` as the new schema's model says. Throws the schema's errors for a schema
 * that does not build.
 */
export function makeMigration(
  parent: MigrationFile | null,
  sdl: string,
  hints: MigrationHints = {},
): MigrationFile {
  const from = ql.parseSchema(parent?.sdl ?? '');
  const commands = generateDdl(from, ql.parseSchema(sdl), hints, pointerKindsOf(buildSchema(sdl)));
  const ddl = ql.printDdl(commands);
  // Read back as a file is read, so what is written is what will be applied.
  const applied = applyDdl(from, ql.parseDdl(ddl));
  return {
    id: ddlMigrationId(parent?.id ?? null, ddl),
    parent: parent?.id ?? null,
    format: 2,
    ddl,
    renames: applied.hints.renames,
    fills: applied.hints.fills,
    sdl: ql.printSchema(applied.schema),
  };
}

/** The file's name in `dbschema/migrations/`: its number, then the start of its id. */
export function migrationFileName(number: number, id: string): string {
  return `${String(number).padStart(5, '0')}-${id.slice(2, 14)}.edgeql`;
}

/** The file's text: `comments` (each a line, e.g. the steps) above the migration. */
export function renderMigrationFile(m: MigrationFile, comments: readonly string[] = []): string {
  if (m.ddl === null) throw new TypeError('only a format-2 migration is written');
  const lines = comments.map((c) => (c ? `# ${c}` : '#'));
  if (lines.length) lines.push('');
  lines.push(`create migration ${m.id}`, `    onto ${m.parent ?? 'initial'}`, '{');
  if (m.ddl) lines.push(...m.ddl.split('\n').map((l) => (l ? `    ${l}` : l)));
  lines.push('};', '');
  return lines.join('\n');
}

const fileError = (file: string, line: number | null, message: string) =>
  new MigrationError(`${file}${line === null ? '' : `:${line}`}: ${message}`, {
    hint: 'migration files are made by `svc migration create`; make a new one rather than editing one',
  });

const changed = (file: string, id: string) =>
  new MigrationError(
    `${file}: its content does not match its id ${id.slice(0, 14)}: it was changed after it was made`,
    {
      hint: 'restore the file as it was made (git checkout), then change the schema and run `svc migration create`',
    },
  );

/**
 * A file's text → the migration it says, its id checked against its content. `file` names it in
 * errors. Throws MigrationError naming the line for text it cannot read, and for an id that does
 * not match (the file was edited after it was made).
 */
export function parseMigrationFile(text: string, file: string): WrittenMigration {
  const normalized = text.replace(/\r\n/g, '\n');
  const head = new RegExp(
    `^((?:[ \\t]*(?:#[^\\n]*)?\\n)*)[ \\t]*create migration (${ID})\\s+onto (initial|${ID})\\s*\\{`,
  ).exec(normalized);
  if (!head) return parseSdlMigrationFile(normalized, file);
  const [whole, , id = '', onto = ''] = head;
  const close = normalized.lastIndexOf('}');
  if (close < whole.length || !/^\}\s*;?\s*$/.test(normalized.slice(close))) {
    throw fileError(file, normalized.split('\n').length, 'the migration must end with `};`');
  }
  // The DDL where it stands in the file (what comes before it blanked), so positions are the file's.
  const body = whole.replace(/[^\n]/g, ' ') + normalized.slice(whole.length, close);
  let commands: ql.DdlCommand[];
  try {
    commands = ql.parseDdl(body);
  } catch (err) {
    if (err instanceof SchemaSyntaxError) {
      const at = (err as { position?: { line: number; column: number } }).position;
      throw fileError(
        file,
        at?.line ?? null,
        `${err.message}${at ? ` (column ${at.column})` : ''}`,
      );
    }
    throw err;
  }
  const parent = onto === 'initial' ? null : onto;
  if (ddlMigrationId(parent, ql.printDdl(commands)) !== id) throw changed(file, id);
  return { format: 2, id, parent, commands };
}

/** Format 1: `create migration <id> onto <parent>;`, renames, fills, `schema to { SDL };`. */
function parseSdlMigrationFile(text: string, file: string): WrittenMigration {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const fail = (line: number, message: string): never => {
    throw fileError(file, line, message);
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
  if (!headMatch)
    return fail(i, 'expected `create migration <id> onto <parent | initial> { ... };`');
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
  if (sdlMigrationId(parent, { renames, fills }, sdl) !== id) throw changed(file, id);
  return { format: 1, id, parent, ddl: null, renames, fills, sdl };
}

/**
 * Files in their order (by name) → the migrations, each checked to apply onto the one before
 * (the first onto none), each given the schema it migrates to (format 2: its DDL applied to the
 * schema before it). Throws MigrationError naming the file that breaks the chain, and the line
 * of a command that does not fit the schema before it.
 */
export function migrationChain(files: readonly { name: string; text: string }[]): MigrationFile[] {
  const out: MigrationFile[] = [];
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) {
    const m = parseMigrationFile(f.text, f.name);
    const before = out.at(-1);
    const expected = before?.id ?? null;
    if (m.parent !== expected) {
      throw new MigrationError(
        `${f.name} applies onto ${m.parent?.slice(0, 14) ?? 'nothing'}, but the migration before it is ${expected?.slice(0, 14) ?? 'none'}`,
        {
          hint: 'two migrations were made onto the same parent (a merge of two branches?): remove the later one and run `svc migration create` again',
        },
      );
    }
    if (m.format === 1) {
      out.push(m);
      continue;
    }
    let applied: ReturnType<typeof applyDdl>;
    try {
      applied = applyDdl(ql.parseSchema(before?.sdl ?? ''), m.commands);
    } catch (err) {
      if (err instanceof MigrationError)
        throw fileError(f.name, null, err.message.replace(/^line (\d+): /, 'line $1: '));
      throw err;
    }
    out.push({
      id: m.id,
      parent: m.parent,
      format: 2,
      ddl: ql.printDdl(m.commands),
      renames: applied.hints.renames,
      fills: applied.hints.fills,
      sdl: ql.printSchema(applied.schema),
    });
  }
  return out;
}
