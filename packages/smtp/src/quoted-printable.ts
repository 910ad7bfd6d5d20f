/** Longest encoded line, soft-break "=" included (RFC 2045 section 6.7, rule 5). */
export const QP_LINE_LENGTH = 76;

/** Converts every CR LF, lone CR and lone LF to CRLF, the only line break SMTP knows. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

const HEX = '0123456789ABCDEF';

function hexEscape(byte: number): string {
  return `=${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

/**
 * Encodes text as UTF-8 quoted-printable (RFC 2045): ASCII stays readable, every other byte
 * becomes `=XX`, line breaks become CRLF, and lines longer than 76 characters are split with
 * soft breaks, so any text (any language, any line length) arrives intact over a 7-bit channel.
 *
 * The result is empty or ends with CRLF: when the text does not end with a line break, the last
 * line ends with a soft break (`=` CRLF), so a decoder gets back exactly the text that went in.
 */
export function encodeQuotedPrintable(text: string): string {
  const lines = normalizeLineBreaks(text).split('\r\n');
  const out: string[] = [];
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    if (last && line === '') return;
    const bytes = Buffer.from(line, 'utf8');
    let current = '';
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      const atEnd = i === bytes.length - 1;
      // Space and tab stay literal except at the end of a line, where transports may strip them.
      const literal =
        (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !atEnd);
      const token = literal ? String.fromCharCode(byte) : hexEscape(byte);
      // Keep room for a soft-break "=" unless this token ends a line that ends in a hard break.
      const room = atEnd && !last ? QP_LINE_LENGTH : QP_LINE_LENGTH - 1;
      if (current.length + token.length > room) {
        out.push(`${current}=\r\n`);
        current = '';
      }
      current += token;
    }
    out.push(last ? `${current}=\r\n` : `${current}\r\n`);
  });
  return out.join('');
}

/**
 * Decodes quoted-printable back to text (UTF-8): removes soft breaks, decodes `=XX`, drops
 * trailing whitespace of encoded lines. Used by tests.
 */
export function decodeQuotedPrintable(encoded: string): string {
  const bytes: number[] = [];
  const lines = encoded.split('\r\n');
  lines.forEach((raw, index) => {
    const line = raw.replace(/[ \t]+$/, '');
    const soft = line.endsWith('=');
    const content = soft ? line.slice(0, -1) : line;
    for (let i = 0; i < content.length; i++) {
      const ch = content.charCodeAt(i);
      const hex = content.slice(i + 1, i + 3);
      if (ch === 61 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        bytes.push(ch & 0xff);
      }
    }
    if (!soft && index < lines.length - 1) bytes.push(13, 10);
  });
  return Buffer.from(bytes).toString('utf8');
}
