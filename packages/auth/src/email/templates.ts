/**
 * The built-in emails (docs/http.md, "Webhooks", lists which event sends which): verification link, password reset link, magic
 * link, magic link for a new user, 6-digit sign-in code. Each renders a subject, a plain-text body
 * and an HTML body.
 *
 * HTML: one centred table, inline styles only (no <style> block, no external CSS, no scripts), so
 * it renders in mail clients that strip the head; the button is a table cell with a link, the
 * link is repeated as text below it. Every interpolated value is HTML-escaped (attribute values
 * too); tokens are URL-encoded into links. Branding: `appName` in the subject, heading and footer;
 * `brandColor` for the button and the code (after a hex fallback, as oklch() is not understood by
 * every client); `logoUrl` as an <img alt="appName">, with `darkLogoUrl` as a
 * `prefers-color-scheme: dark` <source> in a <picture>.
 *
 * The templates re-check branding values they put into attributes and styles (a custom caller may
 * pass unvalidated branding): an invalid colour falls back to the default, an invalid logo URL is
 * left out.
 */
import { escapeHtml } from '@svc/core';
import { isBrandColor, secureUrlProblem } from '../branding';
import type { RenderedEmail, TemplateContext } from '../types';

export const DEFAULT_BRAND_COLOR = '#2563eb';
const FALLBACK_HEX = DEFAULT_BRAND_COLOR;

export type VerificationContext = TemplateContext & { baseUrl: string; verificationToken: string };
export type PasswordResetContext = TemplateContext & { baseUrl: string; resetToken: string };
export type MagicLinkContext = TemplateContext & {
  baseUrl: string;
  magicLinkToken: string;
  link?: string;
};
export type MagicCodeContext = TemplateContext & { code: string };

function trimBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** `<emailBaseUrl>/auth/verify?token=<token>`: the GET /auth/verify route. */
export function verificationLink(baseUrl: string, token: string): string {
  return `${trimBase(baseUrl)}/auth/verify?token=${encodeURIComponent(token)}`;
}

/**
 * `<emailBaseUrl>/auth/reset?token=<token>`: a page of the application's own, which asks for the
 * new password and posts `{token, password}` to POST /auth/reset/confirm.
 */
export function passwordResetLink(baseUrl: string, token: string): string {
  return `${trimBase(baseUrl)}/auth/reset?token=${encodeURIComponent(token)}`;
}

/** `<emailBaseUrl>/auth/magic?token=<token>`: the default magic link. */
export function defaultMagicLink(baseUrl: string, token: string): string {
  return `${trimBase(baseUrl)}/auth/magic?token=${encodeURIComponent(token)}`;
}

interface Layout {
  readonly ctx: TemplateContext;
  /** Hidden preview text shown by mail clients beside the subject. */
  readonly preheader: string;
  readonly heading: string;
  /** Plain-text paragraphs; escaped here. */
  readonly intro: readonly string[];
  readonly button?: { readonly label: string; readonly url: string };
  readonly code?: string;
  readonly outro: readonly string[];
}

function colorOf(ctx: TemplateContext): { fallback: string; color: string } {
  const color = ctx.branding.brandColor;
  if (typeof color !== 'string' || !isBrandColor(color))
    return { fallback: FALLBACK_HEX, color: FALLBACK_HEX };
  // oklch() gets a hex fallback declared first, for clients that drop what they don't parse.
  return { fallback: color.startsWith('#') ? color : FALLBACK_HEX, color };
}

function colorStyle(property: string, ctx: TemplateContext): string {
  const { fallback, color } = colorOf(ctx);
  return fallback === color
    ? `${property}:${color};`
    : `${property}:${fallback};${property}:${color};`;
}

function safeUrl(url: string | undefined): string | undefined {
  return typeof url === 'string' && url.length <= 2048 && secureUrlProblem(url) === null
    ? url
    : undefined;
}

function logoHtml(ctx: TemplateContext): string {
  const logo = safeUrl(ctx.branding.logoUrl);
  const dark = safeUrl(ctx.branding.darkLogoUrl);
  const alt = escapeHtml(ctx.branding.appName);
  if (logo === undefined && dark === undefined) return '';
  const img = `<img src="${escapeHtml(logo ?? dark ?? '')}" alt="${alt}" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0;outline:none;text-decoration:none;">`;
  const inner =
    logo !== undefined && dark !== undefined
      ? `<picture><source srcset="${escapeHtml(dark)}" media="(prefers-color-scheme: dark)">${img}</picture>`
      : img;
  return `<tr><td style="padding:0 0 24px 0;">${inner}</td></tr>`;
}

const FONT =
  "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

function paragraphs(lines: readonly string[], style: string): string {
  return lines.map((line) => `<tr><td style="${style}">${escapeHtml(line)}</td></tr>`).join('');
}

function renderHtml(layout: Layout): string {
  const { ctx } = layout;
  const app = escapeHtml(ctx.branding.appName);
  const body = `margin:0;padding:0 0 16px 0;${FONT}font-size:16px;line-height:24px;color:#1f2937;`;
  const small = `margin:0;padding:0 0 8px 0;${FONT}font-size:13px;line-height:20px;color:#6b7280;`;
  const rows: string[] = [];
  rows.push(logoHtml(ctx));
  rows.push(
    `<tr><td style="padding:0 0 16px 0;${FONT}font-size:22px;line-height:30px;font-weight:bold;color:#111827;"><h1 style="margin:0;font-size:22px;line-height:30px;">${escapeHtml(layout.heading)}</h1></td></tr>`,
  );
  rows.push(paragraphs(layout.intro, body));
  if (layout.button !== undefined) {
    const href = escapeHtml(layout.button.url);
    rows.push(
      `<tr><td style="padding:8px 0 24px 0;"><table role="presentation" border="0" cellpadding="0" cellspacing="0"><tr>` +
        `<td align="center" bgcolor="${escapeHtml(colorOf(ctx).fallback)}" style="border-radius:6px;${colorStyle('background-color', ctx)}">` +
        `<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(layout.button.label)}</a>` +
        `</td></tr></table></td></tr>`,
    );
    rows.push(
      `<tr><td style="${small}">If the button doesn't work, copy this link into your browser:</td></tr>`,
    );
    rows.push(
      `<tr><td style="${small}word-break:break-all;"><a href="${href}" target="_blank" rel="noopener" style="${colorStyle('color', ctx)}">${href}</a></td></tr>`,
    );
  }
  if (layout.code !== undefined) {
    rows.push(
      `<tr><td style="padding:8px 0 24px 0;"><p style="margin:0;font-family:'SFMono-Regular',Menlo,Consolas,monospace;font-size:32px;line-height:40px;font-weight:bold;letter-spacing:6px;${colorStyle('color', ctx)}">${escapeHtml(layout.code)}</p></td></tr>`,
    );
  }
  rows.push(paragraphs(layout.outro, small));
  rows.push(
    `<tr><td style="padding:16px 0 0 0;border-top:1px solid #e5e7eb;${FONT}font-size:12px;line-height:18px;color:#9ca3af;">${app}</td></tr>`,
  );

  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${escapeHtml(layout.heading)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:#f3f4f6;">` +
    `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;">${escapeHtml(layout.preheader)}</div>` +
    `<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" style="background-color:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">` +
    `<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;"><tr><td style="padding:32px;">` +
    `<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0">${rows.join('')}</table>` +
    `</td></tr></table></td></tr></table></body></html>\n`
  );
}

function renderText(layout: Layout): string {
  const parts: string[] = [layout.heading, '', ...layout.intro.flatMap((p) => [p, ''])];
  if (layout.button !== undefined) parts.push(`${layout.button.label}:`, layout.button.url, '');
  if (layout.code !== undefined) parts.push(layout.code, '');
  parts.push(...layout.outro.flatMap((p) => [p, '']), '--', layout.ctx.branding.appName, '');
  return parts.join('\n');
}

function render(subject: string, layout: Layout): RenderedEmail {
  return { subject, text: renderText(layout), html: renderHtml(layout) };
}

const IGNORE = "If you didn't ask for this, you can ignore this email.";

/** EmailVerificationRequested: a link to GET /auth/verify. */
export function verificationEmail(ctx: VerificationContext): RenderedEmail {
  const app = ctx.branding.appName;
  return render(`${app}: verify your email address`, {
    ctx,
    preheader: `Confirm ${ctx.recipient} for ${app}.`,
    heading: 'Verify your email address',
    intro: [`Confirm that ${ctx.recipient} is your email address for ${app}.`],
    button: {
      label: 'Verify email address',
      url: verificationLink(ctx.baseUrl, ctx.verificationToken),
    },
    outro: [IGNORE],
  });
}

/** PasswordResetRequested: a link to the application's reset page. */
export function passwordResetEmail(ctx: PasswordResetContext): RenderedEmail {
  const app = ctx.branding.appName;
  return render(`${app}: reset your password`, {
    ctx,
    preheader: `Choose a new password for ${app}.`,
    heading: 'Reset your password',
    intro: [
      `Someone asked to reset the password of ${ctx.recipient} for ${app}. Use the link below to choose a new one.`,
    ],
    button: { label: 'Choose a new password', url: passwordResetLink(ctx.baseUrl, ctx.resetToken) },
    outro: [`${IGNORE} Your password stays the same.`],
  });
}

/** MagicLinkRequested: a sign-in link (the configured `link`, else the default route). */
export function magicLinkEmail(ctx: MagicLinkContext): RenderedEmail {
  const app = ctx.branding.appName;
  return render(`${app}: your sign-in link`, {
    ctx,
    preheader: `Sign in to ${app} with one click.`,
    heading: `Sign in to ${app}`,
    intro: [`Use the link below to sign in as ${ctx.recipient}. It works once.`],
    button: {
      label: `Sign in to ${app}`,
      url: ctx.link ?? defaultMagicLink(ctx.baseUrl, ctx.magicLinkToken),
    },
    outro: [IGNORE],
  });
}

/** MagicLinkSignupRequested: a magic link that creates the account. */
export function magicLinkSignupEmail(ctx: MagicLinkContext): RenderedEmail {
  const app = ctx.branding.appName;
  return render(`${app}: finish creating your account`, {
    ctx,
    preheader: `Create your ${app} account with one click.`,
    heading: `Welcome to ${app}`,
    intro: [
      `Use the link below to create your account with ${ctx.recipient} and sign in. It works once.`,
    ],
    button: {
      label: 'Create my account',
      url: ctx.link ?? defaultMagicLink(ctx.baseUrl, ctx.magicLinkToken),
    },
    outro: [`${IGNORE} No account is created until the link is used.`],
  });
}

/** MagicCodeRequested: the 6-digit sign-in code. */
export function magicCodeEmail(ctx: MagicCodeContext): RenderedEmail {
  const app = ctx.branding.appName;
  return render(`${app}: your sign-in code`, {
    ctx,
    preheader: `Your ${app} sign-in code.`,
    heading: 'Your sign-in code',
    intro: [`Enter this code to sign in to ${app} as ${ctx.recipient}. It expires in 10 minutes.`],
    code: ctx.code,
    outro: [`${IGNORE} Never share this code.`],
  });
}
