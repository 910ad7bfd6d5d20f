import { encodeWords } from './encoded-word';

/** Lines are folded to this length when they can be (RFC 5322 section 2.1.1 "SHOULD"). */
export const HEADER_LINE_TARGET = 78;
/** No line of a message is ever longer than this (RFC 5322 section 2.1.1 "MUST"). */
export const MAX_LINE_OCTETS = 998;

const isWsp = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/**
 * Splits a value at the places where a CRLF may be inserted (before a white space that is
 * followed by something else) and joins the pieces greedily into lines of about 78 characters.
 * Unfolding (removing the CRLFs) gives back the value exactly.
 */
function foldAtWhiteSpace(prefixLength: number, value: string): string[] {
  const segments: string[] = [];
  let start = 0;
  for (let i = 1; i < value.length - 1; i++) {
    if (isWsp(value[i]) && !isWsp(value[i + 1])) {
      segments.push(value.slice(start, i));
      start = i;
    }
  }
  segments.push(value.slice(start));
  const lines: string[] = [];
  let current = segments[0] ?? '';
  let length = prefixLength + current.length;
  for (const segment of segments.slice(1)) {
    if (length + segment.length <= HEADER_LINE_TARGET) {
      current += segment;
      length += segment.length;
    } else {
      lines.push(current);
      current = segment;
      length = segment.length;
    }
  }
  lines.push(current);
  return lines;
}

/** True when a value can travel as itself: printable ASCII, no encoded-word lookalike, no edge spaces. */
function isPlain(value: string): boolean {
  return /^[\x20-\x7e]*$/.test(value) && !value.includes('=?') && value.trim() === value;
}

/**
 * One unstructured header field (`Subject`), folded: `Name: value` as-is when the value is plain
 * ASCII, RFC 2047 encoded words (one per folded line) when it is not or cannot be folded under
 * 998 octets. No trailing CRLF. The value must not contain CR or LF (validated by the caller).
 */
export function unstructuredHeader(name: string, value: string): string {
  const prefix = `${name}: `;
  if (isPlain(value)) {
    const lines = foldAtWhiteSpace(prefix.length, value);
    const fits = lines.every(
      (line, i) => (i === 0 ? prefix.length : 0) + line.length <= MAX_LINE_OCTETS,
    );
    if (fits) return prefix + lines.join('\r\n');
  }
  return prefix + encodeWords(value).join('\r\n ');
}

const ATOM_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?: [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/;

/**
 * A display name as an RFC 5322 phrase: atoms as they are, other printable ASCII as a quoted
 * string, anything else (non-ASCII, very long) as encoded words.
 */
export function encodePhrase(name: string): string {
  if (name.length <= HEADER_LINE_TARGET && !name.includes('=?')) {
    if (ATOM_PHRASE.test(name)) return name;
    if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/["\\]/g, '\\$&')}"`;
  }
  return encodeWords(name).join('\r\n ');
}

/** An address-list header (`To`), one address after another, folded between addresses. */
export function addressListHeader(name: string, addresses: readonly string[]): string {
  let out = `${name}: `;
  let length = out.length;
  addresses.forEach((address, i) => {
    const text = i < addresses.length - 1 ? `${address},` : address;
    const firstLine = text.split('\r\n')[0] ?? '';
    if (i > 0 && length + 1 + firstLine.length > HEADER_LINE_TARGET) {
      out += '\r\n ';
      length = 1;
    } else if (i > 0) {
      out += ' ';
      length += 1;
    }
    out += text;
    const lastLine = text.slice(text.lastIndexOf('\r\n') + 2);
    length = text.includes('\r\n') ? lastLine.length : length + text.length;
  });
  return out;
}
