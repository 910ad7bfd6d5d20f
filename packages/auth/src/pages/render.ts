/**
 * The hosted pages' HTML (docs/http.md, "Hosted pages"): one layout, server-rendered, no
 * framework, no inline script and no third-party anything. Every interpolated value goes through
 * `escapeHtml` (attributes are always quoted). The one stylesheet is inline and allowed by its
 * hash; the only script (the passkey page's) is a static file of this server. Branding: `appName`
 * in the title and heading, `brandColor` on the button (its text black or white, whichever
 * contrasts more), `logoUrl` with `darkLogoUrl` for a dark colour scheme.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '@svc/core';
import { isBrandColor, secureUrlProblem, type ResolvedBranding } from '../branding';

export const DEFAULT_PAGE_COLOR = '#2563eb';

/** The text colour that contrasts more with `color` (hex: WCAG luminance; oklch: its lightness). */
export function contrastingText(color: string): '#000000' | '#ffffff' {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const [r, g, b] = [0, 2, 4].map((i) => {
      const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    // Contrast against white (1.05 / (L + 0.05)) versus against black ((L + 0.05) / 0.05).
    return 1.05 / (lum + 0.05) >= (lum + 0.05) / 0.05 ? '#ffffff' : '#000000';
  }
  const l = /^oklch\(\s*([0-9.]+)(%?)/i.exec(color);
  if (l) {
    const lightness = Number(l[1]) / (l[2] ? 100 : 1);
    return lightness > 0.62 ? '#000000' : '#ffffff';
  }
  return '#ffffff';
}

export interface PageLook {
  readonly branding: ResolvedBranding;
  readonly css: string;
  /** `'sha256-…'` of `css`, for the CSP. */
  readonly styleSource: string;
  /** The origins of the logos (CSP `img-src`). */
  readonly imageOrigins: readonly string[];
}

export function pageLook(branding: ResolvedBranding): PageLook {
  const color =
    branding.brandColor && isBrandColor(branding.brandColor)
      ? branding.brandColor
      : DEFAULT_PAGE_COLOR;
  const text = contrastingText(color);
  // Colours meet WCAG AA (4.5:1) on both schemes; the focus ring is always visible.
  const css = `:root{color-scheme:light dark;--brand:${color};--on-brand:${text};--bg:#f4f4f5;--card:#ffffff;--fg:#18181b;--muted:#52525b;--border:#a1a1aa;--error:#b91c1c}
@media (prefers-color-scheme:dark){:root{--bg:#18181b;--card:#27272a;--fg:#fafafa;--muted:#d4d4d8;--border:#71717a;--error:#fca5a5}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:1rem}
main{width:100%;max-width:26rem;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:2rem}
.logo{display:block;max-height:48px;max-width:200px;margin:0 0 1rem}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 .75rem}
p{margin:0 0 1rem}
.muted{color:var(--muted);font-size:.875rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=password],input[type=email],input[type=text]{display:block;width:100%;font:inherit;padding:.625rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--card);color:var(--fg);margin:0 0 1rem}
input[aria-invalid=true]{border-color:var(--error);border-width:2px}
.field-error{color:var(--error);font-size:.875rem;margin:-.75rem 0 1rem}
button{display:block;width:100%;font:inherit;font-weight:600;padding:.75rem 1rem;border:0;border-radius:8px;background:var(--brand);color:var(--on-brand);cursor:pointer}
button:hover{filter:brightness(1.08)}
:focus-visible{outline:3px solid var(--fg);outline-offset:2px}
a{color:inherit}
.alert{border:1px solid var(--error);color:var(--error);border-radius:8px;padding:.75rem;margin:0 0 1rem}
.ok{font-size:2rem;line-height:1;margin:0 0 .5rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{font-weight:600;margin:0 0 .25rem}
.choice{display:flex;gap:.5rem;align-items:center;font-weight:400}
footer{margin-top:1.5rem}`;
  const styleSource = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
  const imageOrigins = [branding.logoUrl, branding.darkLogoUrl]
    .filter((u): u is string => typeof u === 'string' && secureUrlProblem(u) === null)
    .map((u) => new URL(u).origin);
  return { branding, css, styleSource, imageOrigins: [...new Set(imageOrigins)] };
}

/**
 * The pages' Content-Security-Policy: nothing but this server's script, the hashed stylesheet,
 * the logos, forms posting here (and, through their redirect, to the allowed redirect origins),
 * never framed.
 */
export function pageCsp(look: PageLook, formTargets: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${look.styleSource}`,
    `img-src ${look.imageOrigins.length ? look.imageOrigins.join(' ') : "'none'"}`,
    "connect-src 'self'",
    `form-action 'self'${formTargets.length ? ` ${formTargets.join(' ')}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export interface PageContent {
  /** Shown as the heading and in the title (after the app's name). */
  readonly heading: string;
  /** Trusted HTML built with `h`/`escapeHtml` by the caller. */
  readonly body: string;
  /** A same-origin script (the passkey page's). */
  readonly script?: string;
}

/** A whole page. */
export function renderPage(look: PageLook, content: PageContent): string {
  const { branding } = look;
  const name = escapeHtml(branding.appName);
  const logo = branding.logoUrl && secureUrlProblem(branding.logoUrl) === null;
  const dark = branding.darkLogoUrl && secureUrlProblem(branding.darkLogoUrl) === null;
  const logoHtml = logo
    ? `<picture>${dark ? `<source srcset="${escapeHtml(branding.darkLogoUrl as string)}" media="(prefers-color-scheme: dark)">` : ''}<img class="logo" src="${escapeHtml(branding.logoUrl as string)}" alt="${name}"></picture>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(content.heading)} · ${name}</title>
<style>${look.css}</style>
${content.script ? `<script src="${escapeHtml(content.script)}" defer></script>\n` : ''}</head>
<body>
<main>
${logoHtml}${logo ? '' : `<p class="muted">${name}</p>`}
<h1 id="heading">${escapeHtml(content.heading)}</h1>
${content.body}
</main>
</body>
</html>
`;
}

/** `name="value"` pairs of hidden inputs. */
export function hiddenFields(fields: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(
      ([k, v]) =>
        `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v as string)}">`,
    )
    .join('');
}

export { escapeHtml };
