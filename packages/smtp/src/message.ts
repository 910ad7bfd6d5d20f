import { randomBytes } from 'node:crypto';

import { formatMailbox, type Mailbox } from './address';
import { addressListHeader, unstructuredHeader } from './header';
import { encodeQuotedPrintable } from './quoted-printable';

/** Everything that goes into one message, validated (see `validateMessage`). */
export interface MessageParts {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly replyTo?: Mailbox | undefined;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
  /** With the angle brackets: `<id@example.com>`. */
  readonly messageId: string;
  readonly date: Date;
  /** The multipart boundary; random when not given. */
  readonly boundary?: string;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** A date in RFC 5322 section 3.3 form, in UTC: `Sat, 21 Nov 2026 10:43:01 +0000`. */
export function formatDate(date: Date): string {
  return (
    `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}

/** A fresh Message-ID: `<32 random hex digits@domain>`. */
export function createMessageId(domain: string): string {
  return `<${randomBytes(16).toString('hex')}@${domain}>`;
}

function part(contentType: string, body: string): string {
  return (
    `Content-Type: ${contentType}; charset=utf-8\r\n` +
    'Content-Transfer-Encoding: quoted-printable\r\n' +
    '\r\n' +
    encodeQuotedPrintable(body)
  );
}

/**
 * Builds an RFC 5322 message: headers (From, To, Reply-To, Subject, Date, Message-ID,
 * MIME-Version), then a quoted-printable UTF-8 text/plain body, or a multipart/alternative of
 * text/plain and text/html when `html` is given. The result is 7-bit ASCII with CRLF line
 * breaks, no line longer than 998 octets, ending with CRLF; it is not dot-stuffed yet.
 */
export function buildMessage(parts: MessageParts): string {
  const headers = [
    addressListHeader('From', [formatMailbox(parts.from)]),
    addressListHeader('To', parts.to.map(formatMailbox)),
    ...(parts.replyTo ? [addressListHeader('Reply-To', [formatMailbox(parts.replyTo)])] : []),
    unstructuredHeader('Subject', parts.subject),
    `Date: ${formatDate(parts.date)}`,
    `Message-ID: ${parts.messageId}`,
    'MIME-Version: 1.0',
  ];
  if (parts.html === undefined) {
    return `${headers.join('\r\n')}\r\n${part('text/plain', parts.text)}`;
  }
  // "=" never appears in quoted-printable output unescaped, so this boundary cannot occur in a part.
  const boundary = parts.boundary ?? `=_svc_${randomBytes(12).toString('hex')}`;
  return (
    `${headers.join('\r\n')}\r\n` +
    `Content-Type: multipart/alternative; boundary="${boundary}"\r\n` +
    '\r\n' +
    `--${boundary}\r\n${part('text/plain', parts.text)}\r\n` +
    `--${boundary}\r\n${part('text/html', parts.html)}\r\n` +
    `--${boundary}--\r\n`
  );
}
