/**
 * The built-in email listener (docs/http.md, "Webhooks"). It subscribes to the event stream and
 * mails on five kinds; the others are notification only.
 *
 * | Event                        | Email                                                   |
 * | ---------------------------- | ------------------------------------------------------- |
 * | `EmailVerificationRequested` | `<emailBaseUrl>/auth/verify?token=…` (GET /auth/verify) |
 * | `MagicCodeRequested`         | the 6-digit sign-in code                                |
 * | `MagicLinkRequested`         | the magic link (`magicLinkUrlTemplate`)                 |
 * | `MagicLinkSignupRequested`   | the magic link, worded for a new user, to `pendingEmail`|
 * | `PasswordResetRequested`     | `<emailBaseUrl>/auth/reset?token=…`: a page of the app's that posts to /auth/reset/confirm |
 *
 * Registration: with `smtp` and `emailBaseUrl`, an `SmtpMailer`; with `smtp` but no
 * `emailBaseUrl`, an error is logged and nothing is registered. An injected `mailer` replaces
 * whatever `smtp` would make.
 *
 * With no mailer (no `smtp`, none injected) nothing is delivered, and a warning says so once, at
 * construction. What happens to each email then depends on whether this is development, which
 * is `NODE_ENV` other than `production` (or the `development` option):
 * - development: a `NoopMailer` "sends" it and one info line shows its recipient, subject and the
 *   links it carries (for the 6-digit sign-in email, the code), so a developer can follow a reset
 *   or verification link from the terminal. Without `emailBaseUrl` the links are relative
 *   (`/auth/verify?token=…`). Nothing else of the message is logged: not its text, not its HTML.
 * - production: with `emailBaseUrl`, the `NoopMailer` above, logging only the event type and
 *   id (never the recipient or a token); without, nothing is registered. Tokens then reach
 *   webhook subscribers only.
 * With `devMailbox` (the server's development inbox), each email is also kept there, rendered.
 * A configured or injected mailer never causes a recipient, a link or a token to be logged.
 *
 * Delivery failures, and custom renderers that throw or return something other than
 * `{subject, text, html}` strings, are logged with `logger.error` (event type and id, the error;
 * never the token) and never reach the request. A failing renderer falls back to the built-in.
 */
import type { Mailer, MailerLogger } from '@svc/smtp';
import { commonError } from '@svc/core';
import {
  validateBranding,
  validateEmailBaseUrl,
  validateMagicLinkUrlTemplate,
  magicLinkFor,
  type ResolvedBranding,
} from '../branding';
import { consoleLogger, describeError, type AuthLogger, type EventBus } from '../events';
import type { AuthConfig, AuthEvent, EmailTemplates, RenderedEmail } from '../types';
import type { DevMailbox } from './dev-mailbox';
import {
  magicCodeEmail,
  magicLinkEmail,
  magicLinkSignupEmail,
  passwordResetEmail,
  verificationEmail,
} from './templates';

export * from './templates';
export * from './dev-mailbox';

export interface EmailListenerOptions {
  /** Replaces the mailer made from `smtp` (tests capture mail this way). */
  readonly mailer?: Mailer;
  readonly logger?: AuthLogger;
  /**
   * Whether mail, when no mailer is configured, is logged with its recipient and links.
   * @default process.env.NODE_ENV !== 'production'
   */
  readonly development?: boolean;
  /**
   * Where the emails go when no mailer is configured (the development inbox, `/_/mail`): each
   * one, rendered, besides the log line. Ignored when a mailer is configured or injected.
   */
  readonly devMailbox?: DevMailbox;
}

/** The event kinds that send mail. */
export const EMAIL_EVENT_TYPES = Object.freeze([
  'EmailVerificationRequested',
  'MagicCodeRequested',
  'MagicLinkRequested',
  'MagicLinkSignupRequested',
  'PasswordResetRequested',
] as const);

const TEMPLATE_KEYS: ReadonlySet<string> = new Set([
  'verification',
  'passwordReset',
  'magicLink',
  'magicCode',
]);

/** Checks `emailTemplates`: known keys, each a function or undefined. Throws `VALIDATION_ERROR`. */
export function validateEmailTemplates(templates: unknown): EmailTemplates {
  if (templates === undefined || templates === null) return {};
  if (typeof templates !== 'object' || Array.isArray(templates))
    throw commonError('VALIDATION_ERROR', 'emailTemplates must be an object of renderer functions');
  for (const [key, value] of Object.entries(templates)) {
    if (!TEMPLATE_KEYS.has(key)) {
      throw commonError(
        'VALIDATION_ERROR',
        `emailTemplates.${key} is not a template (expected verification, passwordReset, magicLink, magicCode)`,
      );
    }
    if (value !== undefined && typeof value !== 'function') {
      throw commonError(
        'VALIDATION_ERROR',
        `emailTemplates.${key} must be a function (ctx) => {subject, text, html}`,
      );
    }
  }
  return templates as EmailTemplates;
}

function isRendered(value: unknown): value is RenderedEmail {
  if (typeof value !== 'object' || value === null) return false;
  const { subject, text, html } = value as Record<string, unknown>;
  return typeof subject === 'string' && typeof text === 'string' && typeof html === 'string';
}

/**
 * The configured mailer. With SMTP configured, @svc/smtp loads at construction (which validates
 * the config, so a bad one fails at start); without, the silent NoopMailer is built on the first
 * email, so an idle server without mail never loads @svc/smtp.
 */
function makeMailer(config: AuthConfig): Mailer {
  const smtp = () => require('@svc/smtp') as typeof import('@svc/smtp');
  if (config.smtp !== undefined) return smtp().createMailer(config.smtp);
  let noop: Mailer | undefined;
  return {
    send: (input) => {
      noop ??= new (smtp().NoopMailer)(SILENT);
      return noop.send(input);
    },
  };
}

/** The NoopMailer's own lines are not logged: the listener logs what may be shown. */
const SILENT: MailerLogger = { info: () => {}, warn: () => {} };

/**
 * The links an email carries, from its plain-text part: absolute URLs, and paths starting a
 * line or word (the relative links made without `emailBaseUrl`).
 */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/(?:\bhttps?:\/\/|(?<=^|\s)\/(?=[^\s/]))[^\s<>"]+/gm) ?? [])];
}

interface Plan {
  readonly to: string;
  /** The sign-in code a magic-code email carries (shown by the development log). */
  readonly code?: string;
  readonly render: () => RenderedEmail;
  readonly fallback: () => RenderedEmail;
}

/**
 * Installs the email listener on the bus; returns the uninstall function. Validates branding,
 * `emailBaseUrl`, `magicLinkUrlTemplate` and `emailTemplates` first (throws `VALIDATION_ERROR`).
 */
export function installEmailListener(
  bus: EventBus,
  config: AuthConfig,
  options: EmailListenerOptions = {},
): () => void {
  const logger = options.logger ?? consoleLogger;
  const branding: ResolvedBranding = validateBranding(config.branding);
  const templates = validateEmailTemplates(config.emailTemplates);
  const magicTemplate = validateMagicLinkUrlTemplate(
    config.magicLinkUrlTemplate,
    config.emailBaseUrl,
  );

  const hasBase = config.emailBaseUrl !== undefined && config.emailBaseUrl !== null;
  const configured = config.smtp !== undefined || options.mailer !== undefined;
  if (!hasBase && configured) {
    logger.error(
      { smtp: config.smtp !== undefined, mailer: options.mailer !== undefined },
      'auth email: a mailer is configured but emailBaseUrl is not; no email will be sent (set emailBaseUrl to the public URL of the application)',
    );
    return () => {};
  }
  const development = !configured && (options.development ?? process.env.NODE_ENV !== 'production');
  if (!configured) {
    logger.warn(
      { development },
      development
        ? `auth email is not delivered: no SMTP server is configured (auth config smtp, TOML [auth.smtp]); each email is logged here instead, with its links${hasBase ? '' : ' (relative until emailBaseUrl is set)'}`
        : 'auth email is not delivered: no SMTP server is configured (auth config smtp, TOML [auth.smtp]); tokens reach webhook subscribers only',
    );
    if (!development && !hasBase && !options.devMailbox) return () => {};
  }
  const baseUrl = hasBase ? validateEmailBaseUrl(config.emailBaseUrl as string) : '';
  const mailer: Mailer = options.mailer ?? makeMailer(config);

  const planFor = (event: AuthEvent): Plan | string | undefined => {
    switch (event.eventType) {
      case 'EmailVerificationRequested': {
        const { email: to, verificationToken } = event;
        if (!to || !verificationToken) return 'email or verificationToken missing';
        const ctx = { branding, recipient: to, baseUrl, verificationToken };
        return {
          to,
          render: () => (templates.verification ?? verificationEmail)(ctx),
          fallback: () => verificationEmail(ctx),
        };
      }
      case 'PasswordResetRequested': {
        const { email: to, resetToken } = event;
        if (!to || !resetToken) return 'email or resetToken missing';
        const ctx = { branding, recipient: to, baseUrl, resetToken };
        return {
          to,
          render: () => (templates.passwordReset ?? passwordResetEmail)(ctx),
          fallback: () => passwordResetEmail(ctx),
        };
      }
      case 'MagicLinkRequested':
      case 'MagicLinkSignupRequested': {
        const signup = event.eventType === 'MagicLinkSignupRequested';
        const to = signup ? (event.pendingEmail ?? event.email) : event.email;
        const magicLinkToken = event.magicLinkToken;
        if (!to || !magicLinkToken)
          return `${signup ? 'pendingEmail' : 'email'} or magicLinkToken missing`;
        const link = magicLinkFor(
          magicTemplate ?? `${baseUrl}/auth/magic?token={token}`,
          magicLinkToken,
        );
        // `newUser` rides along for custom renderers that want to word the signup case apart.
        const ctx = { branding, recipient: to, baseUrl, magicLinkToken, link, newUser: signup };
        const builtIn = signup ? magicLinkSignupEmail : magicLinkEmail;
        return {
          to,
          render: () => (templates.magicLink ?? builtIn)(ctx),
          fallback: () => builtIn(ctx),
        };
      }
      case 'MagicCodeRequested': {
        const { email: to, magicCode: code } = event;
        if (!to || !code) return 'email or magicCode missing';
        const ctx = { branding, recipient: to, code };
        return {
          to,
          code,
          render: () => (templates.magicCode ?? magicCodeEmail)(ctx),
          fallback: () => magicCodeEmail(ctx),
        };
      }
      default:
        return undefined; // notification only
    }
  };

  return bus.on(async (event) => {
    const where = { eventType: event.eventType, eventId: event.eventId };
    const plan = planFor(event);
    if (plan === undefined) return;
    if (typeof plan === 'string') {
      logger.error(where, `auth email not sent: the event has no recipient or token (${plan})`);
      return;
    }
    let message: RenderedEmail;
    try {
      const rendered: unknown = plan.render();
      if (!isRendered(rendered))
        throw new TypeError('the renderer must return {subject, text, html} strings');
      message = rendered;
    } catch (err) {
      logger.error(
        { ...where, err: describeError(err) },
        'auth email template failed; the built-in template is used instead',
      );
      message = plan.fallback();
    }
    try {
      const result = await mailer.send({
        to: plan.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      if (!configured)
        options.devMailbox?.add({
          eventType: event.eventType,
          to: plan.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      if (configured) {
        logger.info?.(
          {
            ...where,
            messageId: result.messageId,
            accepted: result.accepted.length,
            rejected: result.rejected.length,
          },
          'auth email sent',
        );
      } else if (development) {
        // The developer's own terminal: recipient, subject and links, nothing else of the message.
        const links = linksIn(message.text);
        const shown = plan.code !== undefined ? `code ${plan.code}` : links.join(' ');
        const details = {
          ...where,
          to: plan.to,
          subject: message.subject,
          links,
          ...(plan.code !== undefined ? { code: plan.code } : {}),
        };
        const line =
          `auth email not sent (no SMTP configured) to ${plan.to}: ${JSON.stringify(message.subject)} ${shown}`.trimEnd();
        // Called as methods: a pino logger's methods need their `this`.
        if (logger.info) logger.info(details, line);
        else logger.warn(details, line);
      } else {
        logger.info?.(where, 'auth email not sent: no SMTP server is configured');
      }
    } catch (err) {
      logger.error({ ...where, err: describeError(err) }, 'auth email could not be sent');
    }
  });
}
