import type { SmtpConfig } from '@svc/smtp';
import { validateBranding, validateEmailBaseUrl, validateMagicLinkUrlTemplate } from './branding';
import { resolveSettings } from './config';
import type { AuthAdminConfig, AuthConfig } from './types';
import { validateWebhookSubscriptions } from './webhooks';

const SILENT = { info: () => {}, warn: () => {} };

/**
 * Every problem `createAuth` would refuse this configuration for, as messages (none: an empty
 * list), without opening anything and without needing `jwtSecret`: the settings, branding, the
 * email URLs, the webhooks and the SMTP server's settings. For checking a configuration at load;
 * each check reports its first problem, so one message per part at most.
 */
export function authConfigProblems(config: Readonly<Record<string, unknown>>): string[] {
  const c = config as unknown as AuthConfig;
  const checks: (() => unknown)[] = [
    () => resolveSettings(c as AuthAdminConfig, false),
    () => validateBranding(c.branding),
    () => c.emailBaseUrl !== undefined && validateEmailBaseUrl(c.emailBaseUrl),
    () => validateMagicLinkUrlTemplate(c.magicLinkUrlTemplate, c.emailBaseUrl),
    () => validateWebhookSubscriptions(c.webhooks),
    // @svc/smtp validates its settings when a mailer is made; making one connects nowhere.
    () =>
      c.smtp !== undefined &&
      (require('@svc/smtp') as typeof import('@svc/smtp')).createMailer({
        ...(c.smtp as SmtpConfig),
        logger: SILENT,
      }),
  ];
  const problems: string[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (err) {
      problems.push((err as Error).message.replace(/^auth config: /, ''));
    }
  }
  return problems;
}
