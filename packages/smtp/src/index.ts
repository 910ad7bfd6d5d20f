export { SmtpError, type SmtpErrorCode, type SmtpErrorOptions } from './errors';
export type { SmtpConfig, MailerLogger, TranscriptLogger } from './config';
export type { SendInput, MailMessage, SendResult } from './message-input';
export { SmtpMailer, createMailer, NoopMailer, type Mailer } from './mailer';
