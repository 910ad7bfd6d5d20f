/**
 * RFC 2047 encoded words, the way non-ASCII text travels in a header: `=?UTF-8?B?<base64>?=`.
 * Only the B (base64) form is produced; the decoder reads both B and Q.
 */

/** UTF-8 bytes per encoded word: 39 bytes make 52 base64 characters, a 64-character word. */
export const MAX_WORD_BYTES = 39;

/**
 * Encodes text as one or more encoded words, each at most `maxBytes` bytes of UTF-8 (so at most
 * 75 characters long with the default), never splitting a character between two words.
 */
export function encodeWords(text: string, maxBytes: number = MAX_WORD_BYTES): string[] {
  const words: string[] = [];
  let chunk: Buffer[] = [];
  let size = 0;
  const flush = (): void => {
    words.push(`=?UTF-8?B?${Buffer.concat(chunk).toString('base64')}?=`);
    chunk = [];
    size = 0;
  };
  // Iterating a string yields whole code points, so surrogate pairs stay together.
  for (const char of text) {
    const bytes = Buffer.from(char, 'utf8');
    if (size + bytes.length > maxBytes && size > 0) flush();
    chunk.push(bytes);
    size += bytes.length;
  }
  if (size > 0 || words.length === 0) flush();
  return words;
}

const ENCODED_WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([BbQq])\?([^?\s]*)\?=/g;

function wordBytes(encoding: string, text: string): Buffer {
  if (encoding === 'B' || encoding === 'b') return Buffer.from(text, 'base64');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const hex = text.slice(i + 1, i + 3);
    if (ch === '_') bytes.push(0x20);
    else if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(ch.charCodeAt(0) & 0xff);
  }
  return Buffer.from(bytes);
}

function decodeCharset(charset: string, bytes: Buffer): string {
  const name = charset.toLowerCase();
  if (name === 'iso-8859-1' || name === 'latin1') return bytes.toString('latin1');
  return bytes.toString('utf8');
}

/**
 * Decodes the encoded words of an unfolded header value back to text. White space between two
 * adjacent encoded words is dropped (RFC 2047 section 6.2), and adjacent words of one charset
 * are joined as bytes before decoding, so a character split between two words survives.
 */
export function decodeEncodedWords(value: string): string {
  let out = '';
  let last = 0;
  let run: { charset: string; bytes: Buffer[] } | undefined;
  const flush = (): void => {
    if (run) out += decodeCharset(run.charset, Buffer.concat(run.bytes));
    run = undefined;
  };
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [whole, charset = '', encoding = 'B', text = ''] = match;
    const gap = value.slice(last, match.index);
    const adjacent = run !== undefined && /^[ \t\r\n]*$/.test(gap);
    if (!adjacent || run?.charset.toLowerCase() !== charset.toLowerCase()) {
      flush();
      if (!adjacent) out += gap;
      run = { charset, bytes: [] };
    }
    run?.bytes.push(wordBytes(encoding, text));
    last = (match.index ?? 0) + whole.length;
  }
  flush();
  return out + value.slice(last);
}
