/**
 * conformance/case-file: the text format of result cases (README.md in this folder shows it).
 *
 * Input: the text of one `.case` file. Output: its fixture name and its cases, each a list of
 * steps (a query or a schema, with options and one expectation).
 * Invariant: pure; a malformed file throws `CaseFormatError` naming the line, so a typo never
 * turns into a silently skipped case.
 *
 * @example
 * fixture: tracker
 *
 * === select: every status name
 * select Status.name;
 * --- expect unordered
 * ["open", "closed"]
 */
import type { RequestedCardinality } from '../api';

/**
 * How a result is compared (compare.ts): `ordered` (`--- expect`), `unordered` (`--- expect
 * unordered`: arrays as multisets at every depth) or `exact` (`--- expect exact`: ordered, and
 * object keys in the order written, with no placeholders).
 */
export type ResultOrder = 'ordered' | 'unordered' | 'exact';

export type Expectation =
  | { readonly kind: 'result'; readonly order: ResultOrder; readonly value: unknown }
  /** `className` is an error class of errors/query-errors (a subclass also matches). */
  | { readonly kind: 'error'; readonly className: string; readonly message?: string }
  /** The step must succeed; its result is not compared. */
  | { readonly kind: 'ok' };

export interface QueryStep {
  readonly kind: 'query';
  readonly text: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly globals?: Readonly<Record<string, unknown>>;
  readonly cardinality?: RequestedCardinality;
  readonly expect: Expectation;
  /** 1-based line of the step's first line, for failure messages. */
  readonly line: number;
}

/** An SDL document that must build (`ok`) or fail to build (`error`); no database involved. */
export interface SchemaStep {
  readonly kind: 'schema';
  readonly sdl: string;
  readonly expect: Expectation;
  readonly line: number;
}

export type Step = QueryStep | SchemaStep;

export interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly line: number;
}

export interface CaseFile {
  readonly fixture: string;
  readonly cases: readonly Case[];
}

export class CaseFormatError extends Error {
  constructor(source: string, line: number, message: string) {
    super(`${source}:${line}: ${message}`);
    this.name = 'CaseFormatError';
  }
}

const RESULT_ORDERS: Readonly<Record<string, ResultOrder>> = {
  expect: 'ordered',
  'expect unordered': 'unordered',
  'expect exact': 'exact',
};
const CARDINALITIES: readonly RequestedCardinality[] = ['many', 'atMostOne', 'one'];

interface Section {
  /** The words after `---` (`expect unordered`, `error InvalidReferenceError: no pointer`). */
  readonly header: string;
  readonly body: string;
  readonly line: number;
}

/** Parses one case file; `source` names it in errors. */
export function parseCaseFile(text: string, source = '<case file>'): CaseFile {
  const lines = text.split(/\r?\n/);
  let fixture: string | undefined;
  const cases: Case[] = [];
  let index = 0;
  // Header: comments, blank lines and `fixture: <name>`, up to the first `===`.
  for (; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (line.startsWith('===')) break;
    if (line === '' || line.startsWith('#')) continue;
    const match = /^fixture:\s*([\w-]+)$/.exec(line);
    if (!match)
      throw new CaseFormatError(source, index + 1, `expected "fixture: <name>", got "${line}"`);
    fixture = match[1];
  }
  if (!fixture)
    throw new CaseFormatError(source, 1, 'missing "fixture: <name>" before the first case');
  const names = new Set<string>();
  while (index < lines.length) {
    const caseLine = index + 1;
    const name = (lines[index] as string).replace(/^===/, '').trim();
    if (!name) throw new CaseFormatError(source, caseLine, 'a case needs a name after ===');
    if (names.has(name))
      throw new CaseFormatError(source, caseLine, `duplicate case name "${name}"`);
    names.add(name);
    index++;
    const start = index;
    while (index < lines.length && !(lines[index] as string).startsWith('===')) index++;
    const steps = parseSteps(lines.slice(start, index), start + 1, source);
    cases.push({ name, steps, line: caseLine });
  }
  return { fixture, cases };
}

/** The body of one case: a query (or `--- schema`), its sections, then `--- then` for the next step. */
function parseSteps(lines: readonly string[], firstLine: number, source: string): Step[] {
  const groups: { head: string[]; headLine: number; sections: Section[] }[] = [];
  let current = { head: [] as string[], headLine: firstLine, sections: [] as Section[] };
  groups.push(current);
  let section: { header: string; body: string[]; line: number } | undefined;
  const closeSection = () => {
    if (section)
      current.sections.push({
        header: section.header,
        body: section.body.join('\n').trim(),
        line: section.line,
      });
    section = undefined;
  };
  lines.forEach((raw, offset) => {
    const lineNo = firstLine + offset;
    if (raw.startsWith('---')) {
      const header = raw.slice(3).trim();
      closeSection();
      if (header === 'then') {
        current = { head: [], headLine: lineNo + 1, sections: [] };
        groups.push(current);
        return;
      }
      section = { header, body: [], line: lineNo };
      return;
    }
    if (section) section.body.push(raw);
    else current.head.push(raw);
  });
  closeSection();
  return groups.map((group) => buildStep(group.head, group.headLine, group.sections, source));
}

function buildStep(
  head: readonly string[],
  headLine: number,
  sections: readonly Section[],
  source: string,
): Step {
  // Comment lines before a step's query (`# pending: ...`) are notes, not part of the query.
  const firstCode = head.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const text = (firstCode < 0 ? [] : head.slice(firstCode)).join('\n').trim();
  const [first, ...rest] = sections;
  if (first?.header === 'schema') {
    if (text) throw new CaseFormatError(source, headLine, 'a schema step has no query before it');
    const expect = expectationOf(rest, first.line, source, []);
    return { kind: 'schema', sdl: first.body, expect, line: first.line };
  }
  if (!text) throw new CaseFormatError(source, headLine, 'a step needs a query (or "--- schema")');
  let variables: Record<string, unknown> | undefined;
  let globals: Record<string, unknown> | undefined;
  let cardinality: RequestedCardinality | undefined;
  const expectSections: Section[] = [];
  for (const s of sections) {
    const [word, ...args] = s.header.split(/\s+/);
    if (word === 'variables') variables = jsonObject(s, source);
    else if (word === 'globals') globals = jsonObject(s, source);
    else if (word === 'cardinality') {
      const value = args.join(' ') as RequestedCardinality;
      if (!CARDINALITIES.includes(value))
        throw new CaseFormatError(
          source,
          s.line,
          `cardinality must be one of ${CARDINALITIES.join(', ')}`,
        );
      cardinality = value;
    } else expectSections.push(s);
  }
  const expect = expectationOf(expectSections, headLine, source, [
    'variables',
    'globals',
    'cardinality',
  ]);
  return {
    kind: 'query',
    text,
    ...(variables ? { variables } : {}),
    ...(globals ? { globals } : {}),
    ...(cardinality ? { cardinality } : {}),
    expect,
    line: headLine,
  };
}

function expectationOf(
  sections: readonly Section[],
  line: number,
  source: string,
  options: readonly string[],
): Expectation {
  if (sections.length !== 1) {
    const at = sections[1]?.line ?? line;
    const allowed = [...options, ...Object.keys(RESULT_ORDERS), 'error <Class>', 'ok'].join(', ');
    throw new CaseFormatError(
      source,
      at,
      sections.length === 0
        ? 'a step needs one expectation: "--- expect", "--- expect unordered", "--- error <Class>" or "--- ok"'
        : `one expectation per step (sections allowed: ${allowed}; "--- then" starts the next step)`,
    );
  }
  const s = sections[0] as Section;
  if (s.header === 'ok') return { kind: 'ok' };
  const order = RESULT_ORDERS[s.header];
  if (order) return { kind: 'result', order, value: json(s, source) };
  const error = /^error\s+([A-Za-z_]+)(?::\s*(.+))?$/.exec(s.header);
  if (error) {
    if (s.body) throw new CaseFormatError(source, s.line, 'an error expectation has no body');
    const message = error[2]?.trim();
    return { kind: 'error', className: error[1] as string, ...(message ? { message } : {}) };
  }
  throw new CaseFormatError(source, s.line, `unknown section "--- ${s.header}"`);
}

function json(s: Section, source: string): unknown {
  try {
    return JSON.parse(s.body);
  } catch (error) {
    throw new CaseFormatError(source, s.line, `invalid JSON: ${(error as Error).message}`);
  }
}

function jsonObject(s: Section, source: string): Record<string, unknown> {
  const value = json(s, source);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CaseFormatError(source, s.line, `"--- ${s.header}" holds a JSON object`);
  return value as Record<string, unknown>;
}
