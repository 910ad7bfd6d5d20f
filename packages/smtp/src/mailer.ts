import { resolveConfig, type MailerLogger, type ResolvedConfig, type SmtpConfig } from './config';
import { SmtpConnection } from './connection';
import { buildMessage, createMessageId } from './message';
import {
  envelopeRecipients,
  validateMessage,
  type SendInput,
  type SendResult,
} from './message-input';

/** Anything that sends mail: `SmtpMailer`, `NoopMailer`, or a test double. */
export interface Mailer {
  send(input: SendInput): Promise<SendResult>;
}

/**
 * Sends mail through an SMTP server, one connection per message: TCP (then STARTTLS when the
 * server offers it) or implicit TLS, EHLO, AUTH PLAIN or LOGIN, MAIL/RCPT/DATA, QUIT. The config
 * is validated here; a bad one throws an `SmtpError` with code `ECONFIG`. `send` rejects with an
 * `SmtpError` when the message cannot be delivered to any recipient.
 *
 * @example
 * const mailer = new SmtpMailer({
 *   host: 'smtp.example.com',
 *   from: 'Example <no-reply@example.com>',
 *   auth: { user: 'no-reply@example.com', pass: process.env.SMTP_PASSWORD ?? '' },
 * });
 * const { messageId, rejected } = await mailer.send({ to: 'user@example.com', subject: 'Welcome', text: 'Hello!' });
 */
export class SmtpMailer implements Mailer {
  private readonly config: ResolvedConfig;

  constructor(config: SmtpConfig) {
    this.config = resolveConfig(config);
    if (config.tlsRejectUnauthorized === false) {
      this.config.logger.warn(
        '@svc/smtp: tlsRejectUnauthorized: false is ignored; server certificates are still validated. ' +
          'To trust a private or self-signed CA, pass its certificate as tls.ca.',
      );
    }
  }

  async send(input: SendInput): Promise<SendResult> {
    const message = validateMessage(input);
    const from = message.from ?? this.config.from;
    const messageId = createMessageId(this.config.messageIdDomain);
    const raw = buildMessage({
      from,
      to: message.to,
      replyTo: this.config.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId,
      date: new Date(),
    });
    const envelope = { from: from.address, to: envelopeRecipients(message.to) };
    const { accepted, rejected } = await new SmtpConnection(this.config, envelope, raw).send();
    return { accepted, rejected, messageId };
  }
}

/**
 * Creates an `SmtpMailer`; the same as `new SmtpMailer(config)`.
 *
 * @example
 * const mailer = createMailer({ host: 'smtp.example.com', from: 'no-reply@example.com' });
 */
export function createMailer(config: SmtpConfig): Mailer {
  return new SmtpMailer(config);
}

/**
 * A mailer that sends nothing: it validates the message, logs it (recipients, subject and text,
 * so sign-in links can be read in development) with `logger.info`, and returns a result as if
 * every recipient had accepted it. For development setups without an SMTP server.
 *
 * @example
 * const mailer = new NoopMailer(console);
 * await mailer.send({ to: 'dev@example.com', subject: 'Your link', text: 'https://app.example.com/magic?t=…' });
 */
export class NoopMailer implements Mailer {
  private readonly logger: MailerLogger;

  /** @param logger where messages are logged: an object with `info` and `warn` (default `console`), or one function. */
  constructor(
    logger: MailerLogger | ((message: string, details?: Record<string, unknown>) => void) = console,
  ) {
    this.logger = typeof logger === 'function' ? { info: logger, warn: logger } : logger;
  }

  async send(input: SendInput): Promise<SendResult> {
    const message = validateMessage(input);
    const to = envelopeRecipients(message.to);
    const domain =
      message.from?.address.slice(message.from.address.lastIndexOf('@') + 1) ?? 'localhost';
    const messageId = createMessageId(domain);
    this.logger.info(
      `@svc/smtp: mail not sent (no SMTP server configured): to ${to.join(', ')}, subject ${JSON.stringify(message.subject)}`,
      {
        to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        messageId,
      },
    );
    return { accepted: to, rejected: [], messageId };
  }
}
