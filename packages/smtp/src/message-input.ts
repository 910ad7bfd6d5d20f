import { parseMailbox, type Mailbox } from './address';
import { SmtpError } from './errors';

/**
 * One message to send.
 *
 * @example
 * { to: ['ann@example.com', 'Bob <bob@example.com>'], subject: 'Hello', text: 'Hi!', html: '<p>Hi!</p>' }
 */
export interface SendInput {
  /** One recipient or several: `user@example.com` or `Name <user@example.com>`, one per string. */
  to: string | readonly string[];
  /** Any text, any language (non-ASCII is sent as RFC 2047 encoded words); no CR or LF. */
  subject: string;
  /** The plain-text body. Line breaks may be LF, CR or CRLF; they are sent as CRLF. */
  text: string;
  /** An HTML alternative; when given the message is multipart/alternative. */
  html?: string;
  /** Overrides the configured `from` for this message. */
  from?: string;
}

/** Another name for `SendInput`. */
export type MailMessage = SendInput;

/** What the server did with a message. */
export interface SendResult {
  /** The recipients the server accepted (bare addresses). */
  accepted: string[];
  /** The recipients the server refused (bare addresses); the message went to the others. */
  rejected: string[];
  /** The Message-ID header of the message, with its angle brackets. */
  messageId: string;
}

export interface ValidMessage {
  readonly from: Mailbox | undefined;
  readonly to: readonly Mailbox[];
  readonly subject: string;
  readonly text: string;
  readonly html: string | undefined;
}

const FIELDS = new Set(['to', 'subject', 'text', 'html', 'from']);

function fail(message: string): never {
  throw new SmtpError('EMESSAGE', message);
}

/**
 * Validates a message where it enters `send`: known fields only, addresses well-formed, no CR or
 * LF in anything that becomes a header (header injection), strings where strings belong.
 */
export function validateMessage(input: SendInput): ValidMessage {
  if (typeof input !== 'object' || input === null) fail('send() expects a message object');
  for (const key of Object.keys(input)) {
    if (!FIELDS.has(key))
      fail(`unsupported message field "${key}" (supported: ${[...FIELDS].join(', ')})`);
  }
  const list: readonly unknown[] =
    typeof input.to === 'string' ? [input.to] : Array.isArray(input.to) ? input.to : [];
  if (list.length === 0) fail('to: at least one recipient is required');
  const to = list.map((address, i) =>
    parseMailbox(address, list.length === 1 ? 'to' : `to[${i}]`, 'EMESSAGE'),
  );
  const { subject, text, html } = input;
  if (typeof subject !== 'string') fail('subject must be a string');
  if (/[\r\n]/.test(subject))
    fail('subject: CR and LF are not allowed in a header (header injection)');
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(subject))
    fail('subject: control characters are not allowed');
  if (typeof text !== 'string') fail('text must be a string');
  if (html !== undefined && typeof html !== 'string') fail('html must be a string when given');
  const from = input.from === undefined ? undefined : parseMailbox(input.from, 'from', 'EMESSAGE');
  return { from, to, subject, text, html };
}

/** The bare addresses of the envelope, each once (the first spelling wins, compared case-insensitively). */
export function envelopeRecipients(to: readonly Mailbox[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { address } of to) {
    const key = address.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(address);
    }
  }
  return out;
}
