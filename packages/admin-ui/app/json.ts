/**
 * JSON as svc sends it, without losing digits: an `int64` beyond 2^53, a `bigint` or a `decimal`
 * arrives as a JSON number that a JavaScript number cannot hold. Such a number is kept as the
 * string of its digits, as written; every other number stays a number. The text is scanned once
 * (strings skipped whole) and only those numbers are quoted before JSON.parse, so it works in
 * every browser (the reviver's source text, ES2025, is not yet everywhere).
 */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJson(text: string): unknown {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote (past escapes).
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++)
        if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) continue; // not JSON: JSON.parse says so below
      const source = m[0];
      if (losesDigits(source, Number(source))) {
        out += `${text.slice(from, i)}"${source}"`;
        from = i + source.length;
      }
      i += source.length - 1;
    }
  }
  return JSON.parse(from === 0 ? text : out + text.slice(from));
}

/** True when `value` (the double `source` parsed to) does not hold the digits `source` wrote. */
export function losesDigits(source: string, value: number): boolean {
  return digits(source) !== digits(String(value));
}

/** The significant digits of a JSON number: no sign, point, exponent or outer zeros. */
function digits(number: string): string {
  const mantissa = number.toLowerCase().split('e')[0] ?? '';
  return mantissa.replace(/[-+.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
}
