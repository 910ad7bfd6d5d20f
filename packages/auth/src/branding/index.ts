/**
 * Validation of what the emails show and link to, at construction (`branding` and
 * `magicLinkUrlTemplate`). Every failure is an `SvcError` with code `VALIDATION_ERROR` (status 400)
 * whose message names the configuration key.
 *
 * URLs are judged by `new URL`, never by prefix matching: `http://localhost.evil.com` and
 * `http://127.0.0.1.evil.com` are not loopback.
 */
import { commonError, type SvcError } from '@svc/core';
import type { Branding, TemplateContext } from '../types';

/** Branding with its default applied: what every template receives. */
export type ResolvedBranding = TemplateContext['branding'];

export const DEFAULT_APP_NAME = 'Your account';
export const APP_NAME_MAX_LENGTH = 80;
export const LOGO_URL_MAX_LENGTH = 2048;
/** The placeholder of `magicLinkUrlTemplate`. */
export const TOKEN_PLACEHOLDER = '{token}';

const BRANDING_KEYS: ReadonlySet<string> = new Set([
  'appName',
  'brandColor',
  'logoUrl',
  'darkLogoUrl',
]);

function invalid(message: string): SvcError {
  return commonError('VALIDATION_ERROR', message);
}

/** A value for an error message: JSON, cut at 100 characters. */
function show(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** C0, DEL and C1 controls, plus the Unicode line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * Loopback: `localhost`, any address in 127.0.0.0/8, `[::1]`. The host is taken from a parsed URL
 * (so `127.1` and `0x7f.0.0.1` are already normalized to `127.0.0.1` by the WHATWG parser).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && m[1] === '127' && m.slice(2).every((part) => Number(part) <= 255);
}

/**
 * Checks an absolute URL allowed in an email: `https:`, or `http:` on a loopback host. Returns an
 * explanation of the problem, or `null` when the URL is acceptable.
 */
export function secureUrlProblem(raw: string): string | null {
  if (CONTROL.test(raw) || /\s/.test(raw))
    return 'must not contain whitespace or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return url.hostname === '' ? 'must name a host' : null;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? null
      : 'must use https:// (http:// is allowed only for localhost or loopback addresses)';
  }
  return `must use https:// (${url.protocol} is refused)`;
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const NUM = String.raw`[+-]?(?:\d+(?:\.\d+)?|\.\d+)`;
const PCT_OR_NUM = String.raw`(?:${NUM}%?|none)`;
const HUE = String.raw`(?:${NUM}(?:deg|grad|rad|turn)?|none)`;
/** `oklch(L C H)` or `oklch(L C H / A)`, space-separated only. */
const OKLCH = new RegExp(
  String.raw`^oklch\(\s*${PCT_OR_NUM}\s+${PCT_OR_NUM}\s+${HUE}(?:\s*/\s*${PCT_OR_NUM})?\s*\)$`,
  'i',
);

/** `#abc`, `#aabbcc` or a space-separated `oklch(...)`; nothing else (no 4/8-digit hex, names, rgb(), commas). */
export function isBrandColor(value: string): boolean {
  return HEX_COLOR.test(value) || OKLCH.test(value);
}

/** Validates `branding` and applies the default `appName`. Throws `VALIDATION_ERROR`. */
export function validateBranding(branding?: Branding | null): ResolvedBranding {
  if (branding === undefined || branding === null)
    return Object.freeze({ appName: DEFAULT_APP_NAME });
  if (typeof branding !== 'object' || Array.isArray(branding))
    throw invalid(`branding must be an object, got ${show(branding)}`);
  for (const key of Object.keys(branding)) {
    if (!BRANDING_KEYS.has(key))
      throw invalid(
        `branding.${key} is not a branding key (expected appName, brandColor, logoUrl, darkLogoUrl)`,
      );
  }
  const out: { appName: string; brandColor?: string; logoUrl?: string; darkLogoUrl?: string } = {
    appName: DEFAULT_APP_NAME,
  };

  if (branding.appName !== undefined) {
    const name: unknown = branding.appName;
    if (typeof name !== 'string')
      throw invalid(`branding.appName must be a string, got ${show(name)}`);
    const length = [...name].length;
    if (length < 1 || length > APP_NAME_MAX_LENGTH) {
      throw invalid(
        `branding.appName must be 1 to ${APP_NAME_MAX_LENGTH} characters, got ${length}`,
      );
    }
    if (CONTROL.test(name))
      throw invalid('branding.appName must not contain CR, LF, NUL or other control characters');
    out.appName = name;
  }

  if (branding.brandColor !== undefined) {
    const color: unknown = branding.brandColor;
    if (typeof color !== 'string' || !isBrandColor(color)) {
      throw invalid(
        `branding.brandColor must be a 3- or 6-digit hex colour (#1a73e8) or a space-separated oklch() (oklch(62% 0.19 259)), got ${show(color)}`,
      );
    }
    out.brandColor = color;
  }

  for (const key of ['logoUrl', 'darkLogoUrl'] as const) {
    const value: unknown = branding[key];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw invalid(`branding.${key} must be a string, got ${show(value)}`);
    if (value.length > LOGO_URL_MAX_LENGTH)
      throw invalid(
        `branding.${key} must be at most ${LOGO_URL_MAX_LENGTH} characters, got ${value.length}`,
      );
    const problem = secureUrlProblem(value);
    if (problem !== null) throw invalid(`branding.${key} ${problem}: ${show(value)}`);
    out[key] = value;
  }
  return Object.freeze(out);
}

/** `emailBaseUrl` without its trailing slashes, after checking it is an absolute http(s) URL. */
export function validateEmailBaseUrl(emailBaseUrl: string): string {
  if (typeof emailBaseUrl !== 'string' || CONTROL.test(emailBaseUrl) || /\s/.test(emailBaseUrl)) {
    throw invalid(
      `emailBaseUrl must be an absolute http(s) URL without whitespace, got ${show(emailBaseUrl)}`,
    );
  }
  let url: URL;
  try {
    url = new URL(emailBaseUrl);
  } catch {
    throw invalid(`emailBaseUrl must be an absolute http(s) URL, got ${show(emailBaseUrl)}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    throw invalid(`emailBaseUrl must be an absolute http(s) URL, got ${show(emailBaseUrl)}`);
  }
  if (url.search !== '' || url.hash !== '')
    throw invalid(`emailBaseUrl must not have a query or fragment, got ${show(emailBaseUrl)}`);
  return emailBaseUrl.replace(/\/+$/, '');
}

/**
 * Validates `magicLinkUrlTemplate` and returns the template in force: the configured one, else
 * `<emailBaseUrl>/auth/magic?token={token}`, else `undefined` (no email base URL: no links).
 *
 * A configured template must contain exactly one `{token}`, must be `https://` (or `http://` for
 * localhost or a loopback address), and the placeholder must not be part of the origin (the token
 * would leak to DNS and choose the host).
 */
export function validateMagicLinkUrlTemplate(
  template?: string | null,
  emailBaseUrl?: string | null,
): string | undefined {
  if (template === undefined || template === null) {
    if (emailBaseUrl === undefined || emailBaseUrl === null) return undefined;
    return `${validateEmailBaseUrl(emailBaseUrl)}/auth/magic?token=${TOKEN_PLACEHOLDER}`;
  }
  if (typeof template !== 'string')
    throw invalid(`magicLinkUrlTemplate must be a string, got ${show(template)}`);
  const count = template.split(TOKEN_PLACEHOLDER).length - 1;
  if (count !== 1) {
    throw invalid(
      `magicLinkUrlTemplate must contain exactly one ${TOKEN_PLACEHOLDER} placeholder, found ${count}: ${show(template)}`,
    );
  }
  const problem = secureUrlProblem(magicLinkFor(template, 'token'));
  if (problem !== null) throw invalid(`magicLinkUrlTemplate ${problem}: ${show(template)}`);
  const a = new URL(magicLinkFor(template, 'aaaa'));
  const b = new URL(magicLinkFor(template, 'bbbb'));
  if (a.origin !== b.origin || a.username !== b.username || a.password !== b.password) {
    throw invalid(
      `magicLinkUrlTemplate must not put ${TOKEN_PLACEHOLDER} in the scheme, host or port: ${show(template)}`,
    );
  }
  return template;
}

/** The magic link: the template with its `{token}` replaced by the URL-encoded token. */
export function magicLinkFor(template: string, token: string): string {
  const at = template.indexOf(TOKEN_PLACEHOLDER);
  if (at < 0) return template;
  return (
    template.slice(0, at) +
    encodeURIComponent(token) +
    template.slice(at + TOKEN_PLACEHOLDER.length)
  );
}
