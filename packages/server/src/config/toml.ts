/**
 * The config file's TOML: parsed by smol-toml, whose values carry no positions, so the line of
 * each key is found by a scan of the text that parsed (`tomlKeyLines`); a syntax error is shown
 * with its line, column and the offending line (`tomlSyntaxProblem`).
 */

// smol-toml ships a CommonJS build, but its types are ESM-only: type it via resolution-mode.
type Toml = typeof import('smol-toml', { with: { 'resolution-mode': 'import' }});

export const parseToml = (text: string): Record<string, unknown> =>
  (require('smol-toml') as Toml).parse(text) as Record<string, unknown>;

/** A TOML syntax error as `file:line:column: reason`, then the line and a caret under the column. */
export function tomlSyntaxProblem(shown: string, text: string, err: unknown): string {
  const { line, column, message } = err as { line?: unknown; column?: unknown; message?: unknown };
  const reason = String(message ?? err)
    .split('\n')[0]
    ?.replace(/^Invalid TOML document: /, '')
    .trim();
  if (typeof line !== 'number' || typeof column !== 'number') return `${shown}: ${reason}`;
  const source = (text.split(/\r?\n/)[line - 1] ?? '').replace(/\t/g, ' ');
  const caret = `${' '.repeat(Math.max(0, column - 1))}^`;
  return `${shown}:${line}:${column}: ${reason}\n      ${source}\n      ${caret}`;
}

const BARE_OR_QUOTED = String.raw`(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')`;
const HEADER = /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;
const PAIR = new RegExp(String.raw`^\s*(${BARE_OR_QUOTED}(?:\s*\.\s*${BARE_OR_QUOTED})*)\s*=(.*)$`);
const MULTILINE_QUOTES = ['"""', "'''"];

function keyPath(raw: string): string[] {
  return raw
    .split('.')
    .map((part) => part.trim().replace(/^(["'])(.*)\1$/, '$2'))
    .filter((part) => part.length > 0);
}

/**
 * The line of each table and key of a TOML text, by dotted path (`server`, `server.port`,
 * `auth.smtp.port`; the i-th `[[auth.webhooks]]` is `auth.webhooks[i]`). For text that parsed,
 * so a line scan suffices; the lines inside a multi-line string are skipped.
 */
export function tomlKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const arrayCounts = new Map<string, number>();
  const note = (key: string, line: number) => {
    if (!lines.has(key)) lines.set(key, line);
  };
  let table: string[] = [];
  let openString: string | undefined;
  text.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    if (openString !== undefined) {
      if (text.includes(openString)) openString = undefined;
      return;
    }
    const header = HEADER.exec(text);
    if (header) {
      const parts = keyPath(header[2] as string);
      const name = parts.join('.');
      note(name, line);
      if (header[1] === '[[') {
        const i = arrayCounts.get(name) ?? 0;
        arrayCounts.set(name, i + 1);
        table = [...parts.slice(0, -1), `${parts[parts.length - 1]}[${i}]`];
        note(table.join('.'), line);
      } else table = parts;
      return;
    }
    const pair = PAIR.exec(text);
    if (!pair) return;
    const parts = keyPath(pair[1] as string);
    for (let n = 1; n <= parts.length; n++) note([...table, ...parts.slice(0, n)].join('.'), line);
    const value = pair[2] as string;
    for (const quote of MULTILINE_QUOTES) {
      const first = value.indexOf(quote);
      if (first >= 0 && value.indexOf(quote, first + 3) < 0) openString = quote;
    }
  });
  return lines;
}
