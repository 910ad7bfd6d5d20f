import { decodeEncodedWords } from '../encoded-word';
import { decodeQuotedPrintable } from '../quoted-printable';

/** A received message taken apart the way a mail client would. */
export interface ParsedMail {
  /** Header values by lower-cased name, unfolded (CRLF removed), in order. */
  readonly headers: Map<string, string[]>;
  readonly subject: string;
  readonly text: string;
  readonly html: string | undefined;
  readonly contentType: string;
}

function splitHeaders(raw: string): { headers: Map<string, string[]>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string[]>();
  for (const field of head.split(/\r\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).toLowerCase();
    const value = field
      .slice(colon + 1)
      .replace(/\r\n/g, '')
      .trim();
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return { headers, body };
}

function decodePart(headers: Map<string, string[]>, body: string): string {
  const encoding = headers.get('content-transfer-encoding')?.[0]?.toLowerCase();
  if (encoding !== 'quoted-printable')
    throw new Error(`unexpected transfer encoding ${String(encoding)}`);
  return decodeQuotedPrintable(body);
}

/** Parses a message built by @svc/smtp (text/plain or multipart/alternative, quoted-printable). */
export function parseMail(raw: Buffer | string): ParsedMail {
  const text = typeof raw === 'string' ? raw : raw.toString('latin1');
  if (/[^\x00-\x7f]/.test(text)) throw new Error('the message is not 7-bit');
  const { headers, body } = splitHeaders(text);
  const contentType = headers.get('content-type')?.[0] ?? '';
  const subject = decodeEncodedWords(headers.get('subject')?.[0] ?? '');
  if (!contentType.startsWith('multipart/alternative')) {
    return { headers, subject, text: decodePart(headers, body), html: undefined, contentType };
  }
  const boundary = /boundary="([^"]+)"/.exec(contentType)?.[1];
  if (boundary === undefined) throw new Error('multipart without boundary');
  const delimiter = `\r\n--${boundary}`;
  // The body starts with the first delimiter line (without a preceding CRLF).
  const parts = `\r\n${body}`.split(delimiter).slice(1);
  const last = parts.pop();
  if (last !== '--\r\n') throw new Error(`bad closing delimiter ${JSON.stringify(last)}`);
  const decoded = parts.map((part) => {
    const { headers: partHeaders, body: partBody } = splitHeaders(part.replace(/^\r\n/, ''));
    return {
      type: partHeaders.get('content-type')?.[0] ?? '',
      content: decodePart(partHeaders, partBody),
    };
  });
  const plain = decoded.find((p) => p.type.startsWith('text/plain'));
  const html = decoded.find((p) => p.type.startsWith('text/html'));
  if (!plain || !html) throw new Error('multipart/alternative without text/plain and text/html');
  return { headers, subject, text: plain.content, html: html.content, contentType };
}
