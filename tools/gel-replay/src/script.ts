/**
 * gel-replay/script: a test class's schema and setup, as svc can take them.
 *
 * Input: the extractor's `schema` (module → SDL file text) and `setup` (EdgeQL scripts).
 * Output: one SDL document (each Gel module body wrapped in `module <name> { ... }`, plus the
 * SDL of every `START MIGRATION TO { ... }` in the setup), the setup's EdgeQL statements, and the
 * DDL statements svc has no form for (CREATE ..., CONFIGURE ...), which are skipped and counted.
 * Statements are split at top-level `;` outside strings, comments and braces.
 */

export interface ClassScript {
  readonly sdl: string;
  readonly statements: readonly string[];
  readonly skippedDdl: readonly string[];
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

const DDL =
  /^(start|populate|commit|abort|create|alter|drop|configure|set|reset|describe|administer|declare|rollback)\b/i;

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
  const skippedDdl: string[] = [];
  for (const script of setup) {
    for (const statement of splitStatements(script.text)) {
      const head = statement.replace(/^(\s*#[^\n]*\n)*/, '').trimStart();
      if (/^start\s+migration\s+to\s*\{/i.test(head)) {
        const body = braceBody(head);
        if (body !== null) sdl.push(body);
        continue;
      }
      if (/^(populate|commit)\s+migration/i.test(head)) continue;
      if (DDL.test(head)) skippedDdl.push(head.split('\n')[0] as string);
      else statements.push(statement);
    }
  }
  return { sdl: sdl.join('\n\n'), statements, skippedDdl };
}
