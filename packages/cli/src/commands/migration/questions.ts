import {
  planMigration,
  SvcError,
  typeChangeWanting,
  type MigrationPlan,
  type MigrationRename,
  type Schema,
} from '@svc/core';
import { asExitError } from '../../failure';
import { ExitError, type Ask, type CliIo } from '../../io';

/** What `svc migration create` writes into the file besides the schema (MigrationHints). */
export interface CreateHints {
  readonly renames: readonly MigrationRename[];
  /** By subject as the flag names it: `User.handle` (an unqualified type is in `default`). */
  readonly fills: Readonly<Record<string, string>>;
}

/**
 * A drop and a create that may be one rename, which would keep the data the drop loses: a
 * pointer dropped and one of the same kind created in the same type, or a type dropped and one
 * created in the same module with the same pointers.
 */
export interface RenameCandidate {
  /** As `--rename` takes it, and as the file records it (`default::` left out). */
  readonly rename: MigrationRename;
  /** The question Gel asks: `Did you rename default::User.bio to default::User.about?` */
  readonly question: string;
  /** The flag that says yes in a script: `--rename User.bio=about`. */
  readonly flag: string;
  /** What `create` says on stderr when it cannot ask. */
  readonly note: string;
}

/** How many questions one `create` may ask before it gives up (every loop is bounded). */
const MAX_QUESTIONS = 200;
/** How many answers one question takes before it gives up (a wrong fill is asked again). */
const MAX_TRIES = 10;

const short = (name: string) => name.replace(/^default::/, '');

/**
 * Plans the migration from `from` to `to`. With `ask` (a terminal), asks as Gel does: for each
 * type change no cast makes (core `typeChangeWanting`) its new value, for each rename candidate
 * "Did you rename ...? [y/n]", then for each pointer that needs a fill
 * (`MigrationPlan.fillsWanted`) its EdgeQL expression; each fill is checked by planning again and
 * asked again when it does not plan. Without `ask` the flags' hints are all there is. Resolves with the plan
 * and the hints it was made with (the flags' and the answers').
 */
export async function planWithAnswers(
  from: Schema | null,
  to: Schema,
  given: CreateHints,
  ask: Ask | undefined,
  io: CliIo,
): Promise<{ plan: MigrationPlan; hints: CreateHints }> {
  const renames = [...given.renames];
  const fills: Record<string, string> = { ...given.fills };
  const declined = new Set<string>();
  for (let asked = 0; asked <= MAX_QUESTIONS; asked++) {
    const hints = { renames, fills };
    let plan: MigrationPlan;
    try {
      plan = planMigration(from, to, hints);
    } catch (err) {
      // A type change no cast makes: its fill, written over the stored value, makes it.
      const change = ask && typeChangeWanting(err);
      if (!change) throw asExitError(err);
      const pointer = change.subject.slice(change.subject.lastIndexOf('.') + 1);
      fills[short(change.subject)] = await askFill(
        from,
        to,
        hints,
        change.subject,
        `${change.subject} changes type from ${change.from} to ${change.to}, and no cast keeps its data: what is the new value? (an EdgeQL expression over the stored object, e.g. <${change.to}>.${pointer})\n> `,
        ask,
        io,
      );
      continue;
    }
    if (!ask) return { plan, hints };
    const candidate = renameCandidates(from, to, plan).find((c) => !declined.has(c.flag));
    if (candidate) {
      if (await confirm(ask, `${candidate.question} [y/n] `, io)) renames.push(candidate.rename);
      else declined.add(candidate.flag);
      continue;
    }
    const subject = plan.fillsWanted?.[0];
    if (subject === undefined) return { plan, hints };
    fills[short(subject)] = await askFill(
      from,
      to,
      hints,
      subject,
      `${subject} is required and has no default: what value do the objects stored already get? (an EdgeQL expression over the object, e.g. .name)\n> `,
      ask,
      io,
    );
  }
  throw new ExitError(1, `more than ${MAX_QUESTIONS} questions: use --rename and --fill`);
}

async function confirm(ask: Ask, question: string, io: CliIo): Promise<boolean> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const answer = (await ask(question)).toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no') return false;
    io.stderr('Answer y (yes) or n (no); Ctrl-C stops.');
  }
  throw new ExitError(1, `no answer to: ${question.trim()}`);
}

/**
 * Asks `question` until the answer plans as the fill of `subject` (checked as the file will be);
 * another type change still wanting its fill does not count against it (it is asked next).
 */
async function askFill(
  from: Schema | null,
  to: Schema,
  hints: CreateHints,
  subject: string,
  question: string,
  ask: Ask,
  io: CliIo,
): Promise<string> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const expr = await ask(question);
    if (expr === '') {
      io.stderr(
        'An expression is needed (or change the schema: a default, or a new property); Ctrl-C stops.',
      );
      continue;
    }
    try {
      planMigration(from, to, { ...hints, fills: { ...hints.fills, [short(subject)]: expr } });
      return expr;
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      const other = typeChangeWanting(err);
      if (other && other.subject !== subject) return expr;
      const failure = asExitError(err);
      io.stderr(
        `${failure instanceof Error ? failure.message : String(failure)}\nTry again (Ctrl-C stops).`,
      );
    }
  }
  throw new ExitError(1, `no fill for ${subject} planned: pass it with --fill`);
}

/**
 * The rename candidates of a plan, types first (a type's rename changes its pointers'
 * subjects). A pointer: one dropped and one of the same kind (property or link) created in the
 * same type. A type: one dropped and one created in the same module that share most of their
 * pointers (see below).
 */
export function renameCandidates(
  from: Schema | null,
  to: Schema,
  plan: MigrationPlan,
): RenameCandidate[] {
  const of = (kind: string) => plan.steps.filter((s) => s.kind === kind).map((s) => s.subject);
  const found: RenameCandidate[] = [];
  const pointers = (schema: Schema | null, type: string) =>
    new Set(
      (schema?.objectTypes.find((t) => t.name === type)?.pointers ?? [])
        .filter((p) => p.name !== 'id' && p.name !== '__type__')
        .map((p) => `${p.kind} ${p.name}`),
    );
  // A dropped and a created type of one module are a candidate when most of their pointers are
  // the same (by kind and name: at least half of all either has), so a type renamed while a
  // property was added, dropped or renamed is still asked about; the closest first.
  const typeCandidates: { old: string; now: string; score: number }[] = [];
  for (const old of of('drop type')) {
    for (const now of of('create type')) {
      if (moduleOf(old) !== moduleOf(now)) continue;
      const a = pointers(from, old);
      const b = pointers(to, now);
      const shared = [...a].filter((p) => b.has(p)).length;
      const all = new Set([...a, ...b]).size;
      const score = all === 0 ? 1 : shared / all;
      if (score >= 0.5) typeCandidates.push({ old, now, score });
    }
  }
  typeCandidates.sort((x, y) => y.score - x.score);
  for (const { old, now } of typeCandidates) {
    const flag = `--rename ${short(old)}=${short(now)}`;
    found.push({
      rename: { kind: 'type', from: short(old), to: short(now) },
      question: `Did you rename type ${old} to ${now}?`,
      flag,
      note: note(`type ${old}`, `type ${now}`, short(old), flag),
    });
  }
  const dropped = plan.steps.filter((s) => s.kind === 'drop property' || s.kind === 'drop link');
  const created = plan.steps.filter(
    (s) => s.kind === 'create property' || s.kind === 'create link',
  );
  for (const d of dropped) {
    const [type, old] = splitSubject(d.subject);
    for (const c of created) {
      const [otherType, now] = splitSubject(c.subject);
      if (otherType !== type || c.kind.split(' ')[1] !== d.kind.split(' ')[1]) continue;
      const flag = `--rename ${short(type)}.${old}=${now}`;
      found.push({
        rename: { kind: 'pointer', type: short(type), from: old, to: now },
        question: `Did you rename ${d.subject} to ${c.subject}?`,
        flag,
        note: note(d.subject, c.subject, old, flag),
      });
    }
  }
  return found;
}

const note = (dropped: string, created: string, old: string, flag: string) =>
  `svc: ${dropped} is dropped and ${created} created: if ${old} was renamed, create the migration with ${flag} to keep its data`;

const moduleOf = (name: string) => name.slice(0, name.lastIndexOf('::'));

const splitSubject = (subject: string): [string, string] => {
  const dot = subject.lastIndexOf('.');
  return [subject.slice(0, dot), subject.slice(dot + 1)];
};
