/**
 * gel-replay/script: a test class's schema and setup, as svc can take them.
 *
 * Input: the extractor's `schema` (module → SDL file text) and `setup` (EdgeQL scripts).
 * Output: one SDL document (each Gel module body wrapped in `module <name> { ... }`, plus the
 * SDL of every `START MIGRATION TO { ... }` in the setup) and the setup's other statements in
 * the order Gel runs them (queries, DDL, session statements such as `set module m`): the runner
 * runs them in that order (replay.ts `runSetup`), so data meets the schema of its point in the
 * setup. Statements are split at top-level `;` outside strings, comments and braces.
 */

export interface ClassScript {
  readonly sdl: string;
  /** The setup's other statements, in order: queries, DDL and session statements. */
  readonly statements: readonly string[];
}

/** Splits EdgeQL text at top-level semicolons (quotes, `$tag$` strings, `#` comments, nesting). */
export function splitStatements(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      i++;
      while (i < text.length && text[i] !== ch) i += text[i] === '\\' && ch !== '`' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
      if (m) {
        const end = text.indexOf(m[0], i + m[0].length);
        i = end < 0 ? text.length : end + m[0].length;
        continue;
      }
    }
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (ch === ';' && depth === 0) {
      const statement = text.slice(start, i).trim();
      if (statement) out.push(statement);
      start = i + 1;
    }
    i++;
  }
  const last = text.slice(start).trim();
  if (last && !/^(#[^\n]*\s*)*$/.test(last)) out.push(last);
  return out;
}

/** The index just past the quoted string (`'...'` or `"..."`, backslash escapes) opening at
 * `start`. */
export function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

const DDL =
  /^(start|populate|commit|abort|create|alter|drop|configure|set|reset|describe|administer|declare|rollback)\b/i;

/** A statement without its leading `#` comment lines. */
export function statementHead(statement: string): string {
  return statement.replace(/^(\s*#[^\n]*\n)*/, '').trim();
}

/** A `with module <name>` prefix, which Gel takes before DDL too (the module names resolve in). */
export const WITH_MODULE = /^with\s+module\s+([\w:]+)\s+/i;

/** True when the statement is DDL or session configuration (svc takes no such statement). */
export function isDdl(statement: string): boolean {
  return DDL.test(statementHead(statement).replace(WITH_MODULE, ''));
}

/** The body between the first `{` and its matching `}`. */
function braceBody(text: string): string | null {
  const open = text.indexOf('{');
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return null;
}

function wrapModule(name: string, body: string): string {
  return /^\s*module\s+[\w:]+\s*\{/m.test(body) ? body : `module ${name} {\n${body}\n}`;
}

export function classScript(
  schema: Readonly<Record<string, { text: string }>>,
  setup: readonly { text: string }[],
): ClassScript {
  const sdl: string[] = Object.entries(schema).map(([module, file]) =>
    wrapModule(module, file.text),
  );
  const statements: string[] = [];
  for (const script of setup) {
    for (const statement of splitStatements(script.text)) {
      const head = statementHead(statement);
      if (/^start\s+migration\s+to\s*\{/i.test(head)) {
        const body = braceBody(head);
        if (body !== null) sdl.push(body);
        continue;
      }
      if (/^(populate|commit)\s+migration/i.test(head)) continue;
      statements.push(statement);
    }
  }
  return { sdl: sdl.join('\n\n'), statements };
}

/** `statement` with `module` as its default module (merged into a leading `with` block). */
export function withModule(module: string, statement: string): string {
  return /^with\b/i.test(statement)
    ? statement.replace(/^with\b/i, `with module ${module},`)
    : `with module ${module}\n${statement}`;
}

/**
 * `sdl` without the `default := ...` that contains the 1-based `line`/`column` (where svc's
 * schema error points): the default, through its end at depth 0 (`;` included, or the `}` that
 * closes the pointer's block left in place). Null when no default precedes that point.
 */
export function stripDefaultAt(sdl: string, line: number, column: number): string | null {
  const lines = sdl.split('\n');
  let offset = column - 1;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += (lines[i] as string).length + 1;
  const before = sdl.slice(0, offset);
  const matches = [...before.matchAll(/\bdefault\s*:=/g)];
  const start = matches.at(-1)?.index;
  if (start === undefined) return null;
  let depth = 0;
  let i = start + (matches.at(-1) as RegExpMatchArray)[0].length;
  for (; i < sdl.length; i++) {
    const ch = sdl[i] as string;
    if (ch === "'" || ch === '"') {
      i = stringEnd(sdl, i) - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) break;
      depth--;
    } else if (ch === ';' && depth === 0) {
      i++;
      break;
    }
  }
  return sdl.slice(0, start) + sdl.slice(i);
}
