/**
 * errors/frame: an error as a person reads it in a terminal, with the source it points into.
 *
 * Input: an `SvcError` (with the independent errors found with it, `others`) and a way to read
 * the text of a file by the name its position carries. Output: plain text, one block per error:
 *
 *   error: InvalidReferenceError: type 'default::Tg' does not exist
 *     ┌─ dbschema/tags.esdl:4:15
 *     │
 *   4 │   multi tags: Tg;
 *     │               ^^
 *     │
 *     = hint: did you mean 'default::Tag'?
 *
 * Invariants: pure (no I/O, no colour); columns are 1-based UTF-16 code units as the position
 * says, and a tab in the shown line is drawn as the same number of spaces above and below, so
 * the caret stays under its text. At most `MAX_SHOWN_ERRORS` blocks, then "and N more".
 */
import type { SourcePosition, SvcError } from './svc-error';

/** How many errors one report shows before it counts the rest. */
export const MAX_SHOWN_ERRORS = 20;

const TAB = '    ';

/**
 * `err` and every error found with it, each with its code frame when `source(position.file)`
 * (the file's name, or undefined for one unnamed text) gives the text it points into.
 *
 * @example
 * formatErrorReport(err, (file) => (file === 'a.esdl' ? text : undefined));
 */
export function formatErrorReport(
  err: SvcError,
  source: (file: string | undefined) => string | undefined,
): string {
  const all = [err, ...err.others];
  const blocks = all.slice(0, MAX_SHOWN_ERRORS).map((e) => formatOne(e, source));
  if (all.length > MAX_SHOWN_ERRORS) {
    const rest = all.length - MAX_SHOWN_ERRORS;
    blocks.push(`and ${rest} more error${rest === 1 ? '' : 's'}`);
  }
  if (all.length > 1) blocks.push(`${all.length} errors`);
  return blocks.join('\n\n');
}

function formatOne(
  err: SvcError,
  source: (file: string | undefined) => string | undefined,
): string {
  const head = `error: ${err.type ?? err.code}: ${err.message}`;
  const at = err.position;
  const hint = err.hint === undefined ? [] : [`= hint: ${err.hint}`];
  if (at === undefined) return [head, ...hint.map((h) => `  ${h}`)].join('\n');
  const where = `${at.file ?? '<schema>'}:${at.line}:${at.column}`;
  const text = source(at.file);
  const line = text === undefined ? undefined : text.split('\n')[at.line - 1];
  const number = String(at.line);
  const pad = ' '.repeat(number.length);
  if (line === undefined) {
    return [head, `${pad} ┌─ ${where}`, ...hint.map((h) => `${pad} ${h}`)].join('\n');
  }
  const shown = line.replace(/\r$/, '');
  const [from, to] = underline(shown, at);
  const caretAt = visual(shown.slice(0, from)).length;
  const width = Math.max(1, visual(shown.slice(from, to)).length);
  return [
    head,
    `${pad} ┌─ ${where}`,
    `${pad} │`,
    `${number} │ ${visual(shown)}`.trimEnd(),
    `${pad} │ ${' '.repeat(caretAt)}${'^'.repeat(width)}`,
    ...(hint.length === 0 ? [] : [`${pad} │`, ...hint.map((h) => `${pad} ${h}`)]),
  ].join('\n');
}

/**
 * The 0-based [from, to) of `line` to underline: the span when it is known, else the name there
 * (with the `.` or `@` of a path step: the binder points at the step), else one character.
 */
function underline(line: string, at: SourcePosition): [number, number] {
  const from = Math.min(Math.max(at.column - 1, 0), line.length);
  if (at.endLine !== undefined && at.endColumn !== undefined) {
    if (at.endLine === at.line && at.endColumn - 1 > from) return [from, at.endColumn - 1];
    // A span over several lines: its first line, from the column to the last visible character.
    if (at.endLine > at.line) return [from, Math.max(from + 1, line.trimEnd().length)];
  }
  const word = /^[.@]?[\p{L}\p{N}_:]+/u.exec(line.slice(from));
  return [from, from + (word ? word[0].length : 1)];
}

function visual(text: string): string {
  return text.replace(/\t/g, TAB);
}
