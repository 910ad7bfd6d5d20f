/**
 * Log lines for a person at a terminal. pino still builds every line (levels, redaction, the
 * request log's allow-list all apply first); this only re-renders each JSON line it writes:
 *
 *   21:04:05.123 INFO  schema migrated: 3 steps  version=4f1c…
 *   21:04:07.456 INFO  GET /schema 200 1.2 ms
 *   21:04:09.001 ERROR database connection error  err.code=ECONNRESET
 *       Error: read ECONNRESET
 *           at …
 *
 * Fields pino always adds (time, level, pid, hostname, service) are left out; others follow the
 * message as `key=value`.
 */

const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const COLORS: Readonly<Record<number, string>> = {
  10: '90',
  20: '90',
  30: '32',
  40: '33',
  50: '31',
  60: '35',
};
const HIDDEN = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'service']);
const REQUEST_FIELDS = new Set(['method', 'path', 'status', 'ms', 'route', 'reqId']);

export interface PrettyOptions {
  /** ANSI colours for the level and the keys. */
  readonly colors: boolean;
}

/** One pino JSON line as one or more lines of text, each ending in a newline. */
export function formatLogLine(json: string, { colors }: PrettyOptions): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string) => (colors ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = typeof entry.time === 'number' ? clock(new Date(entry.time)) : '';
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  const head = `${paint('90', time)} ${paint(COLORS[level] ?? '0', (LEVELS[level] ?? String(level)).padEnd(5))} `;

  const isRequest =
    msg === 'request' && typeof entry.method === 'string' && entry.status !== undefined;
  const text = isRequest
    ? `${entry.method} ${entry.path ?? entry.route} ${entry.status} ${entry.ms} ms`
    : msg;
  const pairs: string[] = [];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN.has(key) || (isRequest && REQUEST_FIELDS.has(key))) continue;
    if (
      key === 'err' &&
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { stack?: unknown }).stack === 'string'
    ) {
      stack = (value as { stack: string }).stack;
      for (const [k, v] of Object.entries(value))
        if (!['stack', 'message', 'type'].includes(k)) pairs.push(pair(paint, `err.${k}`, v));
      continue;
    }
    pairs.push(pair(paint, key, value));
  }
  const line = `${head}${text}${pairs.length ? `  ${pairs.join(' ')}` : ''}\n`;
  return stack ? `${line}${stack.replace(/^/gm, '    ')}\n` : line;
}

function pair(paint: (code: string, text: string) => string, key: string, value: unknown): string {
  const text =
    typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return `${paint('90', `${key}=`)}${text}`;
}

function clock(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** A pino destination that writes each line as `formatLogLine` renders it. */
export function prettyDestination(
  out: { write(text: string): unknown },
  options: PrettyOptions,
): { write(line: string): void } {
  return {
    write(line: string) {
      out.write(formatLogLine(line, options));
    },
  };
}
