import { SmtpError } from './errors';

/** One complete server reply: `250-first\r\n250 last\r\n` gives code 250 and two lines. */
export interface SmtpReply {
  readonly code: number;
  /** The text of each line, without the code and separator. */
  readonly lines: readonly string[];
}

/** A reply line longer than this is not SMTP (RFC 5321 allows 512 octets); fail instead of buffering. */
export const MAX_REPLY_LINE = 8192;
/** More lines than this in one reply is not SMTP either (EHLO replies have a few dozen at most). */
export const MAX_REPLY_LINES = 512;

const REPLY_LINE = /^([2-5][0-9][0-9])(?:([ -])(.*))?$/s;

/** The text of a reply as one string, lines joined with `\n`, with its code: `535 bad credentials`. */
export function formatReply(reply: SmtpReply): string {
  return `${reply.code} ${reply.lines.join('\n')}`.trimEnd();
}

/**
 * Turns the bytes a server sends into replies. Feed it chunks as they arrive, split anywhere
 * (even inside a multi-byte character or between CR and LF); it returns the replies that the
 * chunk completed, in order, and keeps the incomplete rest for the next chunk. Lines end in
 * CRLF (a bare LF is accepted too). Throws an `EPROTOCOL` SmtpError on a malformed line.
 */
export class ReplyParser {
  private pending: Buffer = Buffer.alloc(0);
  private lines: string[] = [];
  private code = 0;

  push(chunk: Buffer): SmtpReply[] {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const replies: SmtpReply[] = [];
    let start = 0;
    // Bounded by the chunk: every iteration consumes one line of it.
    for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
      const lineEnd = end > start && data[end - 1] === 0x0d ? end - 1 : end;
      if (lineEnd - start > MAX_REPLY_LINE) throw tooLong();
      const reply = this.line(data.toString('utf8', start, lineEnd));
      if (reply) replies.push(reply);
      start = end + 1;
    }
    this.pending = Buffer.from(data.subarray(start));
    if (this.pending.length > MAX_REPLY_LINE) throw tooLong();
    return replies;
  }

  /** Forgets everything buffered: a half line and the lines of an unfinished multi-line reply. */
  reset(): void {
    this.pending = Buffer.alloc(0);
    this.lines = [];
    this.code = 0;
  }

  /** True when bytes of an unfinished reply are buffered. */
  get hasPending(): boolean {
    return this.pending.length > 0 || this.lines.length > 0;
  }

  private line(text: string): SmtpReply | undefined {
    const match = REPLY_LINE.exec(text);
    if (!match) {
      throw new SmtpError(
        'EPROTOCOL',
        `malformed reply line from the server: ${JSON.stringify(text.slice(0, 200))}`,
        {
          response: text,
        },
      );
    }
    const code = Number(match[1]);
    if (this.lines.length > 0 && code !== this.code) {
      throw new SmtpError(
        'EPROTOCOL',
        `reply code changed from ${this.code} to ${code} inside a multi-line reply`,
        {
          response: [...this.lines, text].join('\n'),
          responseCode: code,
        },
      );
    }
    if (this.lines.length >= MAX_REPLY_LINES) {
      throw new SmtpError('EPROTOCOL', `reply has more than ${MAX_REPLY_LINES} lines`, {
        responseCode: code,
      });
    }
    this.code = code;
    this.lines.push(match[3] ?? '');
    if (match[2] === '-') return undefined;
    const reply: SmtpReply = { code, lines: this.lines };
    this.lines = [];
    this.code = 0;
    return reply;
  }
}

function tooLong(): SmtpError {
  return new SmtpError('EPROTOCOL', `reply line longer than ${MAX_REPLY_LINE} bytes`);
}
