/**
 * client/json: JSON.parse, except that a number JavaScript's number would change (more digits
 * than a double holds, `1.50`'s trailing zero) is kept as its text in an `ExactNumber`: svc
 * answers `bigint` and `decimal` as exact JSON numbers (docs/http.md), and the codec decodes
 * them by type from the text. Strict RFC 8259 grammar; bounded depth.
 */

/** A JSON number kept as written, because a JavaScript number would not hold it. */
export class ExactNumber {
  constructor(readonly text: string) {}
  /** As a JavaScript number (rounded), for places of no exact type. */
  toNumber(): number {
    return Number(this.text);
  }
}

const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJson(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON at ${at}: ${what}`);
  };
  const space = () => {
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else break;
    }
  };
  const literal = (word: string, value: unknown) => {
    if (!text.startsWith(word, at)) fail(`expected ${word}`);
    at += word.length;
    return value;
  };
  const string = (): string => {
    // From the opening quote to its closing one, unescaped by JSON.parse itself.
    const start = at;
    at++;
    while (at < text.length) {
      const c = text[at];
      if (c === '\\') at += 2;
      else if (c === '"') {
        at++;
        return JSON.parse(text.slice(start, at)) as string;
      } else at++;
    }
    return fail('unterminated string');
  };
  const number = (): number | ExactNumber => {
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) return fail('expected a value');
    at += m[0].length;
    const n = Number(m[0]);
    return String(n) === m[0] ? n : new ExactNumber(m[0]);
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const out: Record<string, unknown> = {};
      space();
      if (text[at] === '}') {
        at++;
        return out;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail('expected a key');
        const key = string();
        space();
        if (text[at] !== ':') fail('expected :');
        at++;
        Object.defineProperty(out, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        if (text[at] === ',') at++;
        else if (text[at] === '}') {
          at++;
          return out;
        } else fail('expected , or }');
      }
    }
    if (c === '[') {
      at++;
      const out: unknown[] = [];
      space();
      if (text[at] === ']') {
        at++;
        return out;
      }
      for (;;) {
        out.push(value(depth + 1));
        space();
        if (text[at] === ',') at++;
        else if (text[at] === ']') {
          at++;
          return out;
        } else fail('expected , or ]');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return number();
  };
  const result = value(0);
  space();
  if (at !== text.length) fail('trailing text');
  return result;
}

/** `value` with every ExactNumber made a JavaScript number (places of no exact type: json). */
export function plainJson(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.toNumber();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  return value;
}

/**
 * The text of each element of a JSON array's text, as written (no number rounded, no spacing
 * changed): what the `...SingleJSON` methods answer. The text must be an array (svc's `data`).
 */
export function arrayElementTexts(text: string): string[] {
  const elements: string[] = [];
  let depth = 0;
  let start = -1;
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === '"') {
      // Skip the string, escapes included.
      for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === '\\') at++;
      continue;
    }
    if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) {
        if (c !== '[') throw new SyntaxError('not a JSON array');
        start = at + 1;
      }
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        const last = text.slice(start, at).trim();
        if (last !== '') elements.push(last);
        return elements;
      }
    } else if (c === ',' && depth === 1) {
      elements.push(text.slice(start, at).trim());
      start = at + 1;
    }
  }
  throw new SyntaxError('unterminated JSON array');
}
