/**
 * The development inbox (issue 30; docs/http.md, "Development inbox"): the emails auth would have
 * sent when no SMTP server is configured, newest first, from `auth.devMailbox` (in memory, the
 * last 100).
 *
 * - `GET /_/mail`: the list (HTML); `GET /_/mail/:id`: one message, its text (links clickable) and
 *   its HTML in a sandboxed frame; `GET /_/mail/:id/html`: the message's own HTML, under a CSP
 *   that sandboxes it (no script, no same-origin access, links open at the top level);
 *   `GET /_/mail.json`: `{"messages": [{id, createdAt, eventType, to, subject, text, html,
 *   links}]}`; `DELETE /_/mail`: empties it.
 * - Who may read it: it holds sign-in links, so by default only callers on a loopback address
 *   (the socket's peer, never X-Forwarded-For); `devMail: true` shows it to every caller. Others
 *   get 404, as when there is no inbox.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { commonError, escapeHtml } from '@svc/core';
import { linksInText, type Auth, type DevMailMessage } from '@svc/auth';
import { sendJson } from '../http/respond';

const STYLE = `:root{color-scheme:light dark}body{font:15px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;max-width:60rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #a1a1aa;vertical-align:top}
pre{white-space:pre-wrap;word-break:break-word;border:1px solid #a1a1aa;border-radius:8px;padding:1rem}
iframe{width:100%;height:32rem;border:1px solid #a1a1aa;border-radius:8px;background:#fff}
.muted{color:#52525b}@media (prefers-color-scheme:dark){.muted{color:#d4d4d8}}
a:focus-visible{outline:3px solid currentColor;outline-offset:2px}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;
const PAGE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`;
/** A message's own HTML: inline styles and remote images as mail clients show them, nothing else. */
const MESSAGE_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'self'; form-action 'none'";

function isLoopbackPeer(req: Request): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

/** Text with its links (absolute, or paths of this server) made clickable; everything escaped. */
function linkify(text: string): string {
  const links = linksInText(text);
  if (links.length === 0) return escapeHtml(text);
  const pattern = new RegExp(
    links
      .sort((a, b) => b.length - a.length)
      .map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += escapeHtml(text.slice(last, m.index));
    out += `<a href="${escapeHtml(m[0])}" rel="noreferrer">${escapeHtml(m[0])}</a>`;
    last = (m.index ?? 0) + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

function page(res: Response, status: number, title: string, body: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

export interface DevMailOptions {
  readonly auth: Auth;
  /** `devMail`: true shows the inbox to every caller; otherwise to loopback callers only. */
  readonly open: boolean;
}

export function devMailHandlers({ auth, open }: DevMailOptions) {
  const box = auth.devMailbox;
  const check = (req: Request) => {
    if (!box || (!open && !isLoopbackPeer(req)))
      throw commonError('NOT_FOUND', `no route ${req.method} ${req.path}`);
    return box;
  };
  const message = (req: Request): DevMailMessage => {
    const found = check(req).get(String(req.params.id));
    if (!found) throw commonError('NOT_FOUND', 'no such message in the development inbox');
    return found;
  };

  return {
    list(req: Request, res: Response): void {
      const messages = check(req).list();
      const rows = messages
        .map(
          (m) =>
            `<tr><td><time datetime="${escapeHtml(m.createdAt)}">${escapeHtml(m.createdAt.replace('T', ' ').slice(0, 19))}</time></td><td>${escapeHtml(m.to)}</td><td><a href="/_/mail/${escapeHtml(m.id)}">${escapeHtml(m.subject)}</a></td><td class="muted">${escapeHtml(m.eventType)}</td></tr>`,
        )
        .join('');
      page(
        res,
        200,
        'Development inbox',
        `<h1>Development inbox</h1><p class="muted">No SMTP server is configured, so these emails were not sent. Newest first; the last ${box?.capacity ?? 0} are kept in memory until the server stops. They hold sign-in links: this page is for development only.</p>${
          messages.length
            ? `<table><thead><tr><th scope="col">Time (UTC)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Event</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p>No email yet.</p>'
        }`,
      );
    },

    json(req: Request, res: Response): void {
      const messages = check(req)
        .list()
        .map((m) => ({ ...m, links: linksInText(m.text) }));
      sendJson(res, 200, { messages }, { 'Cache-Control': 'no-store' });
    },

    clear(req: Request, res: Response): void {
      check(req).clear();
      sendJson(res, 200, { success: true });
    },

    show(req: Request, res: Response): void {
      const m = message(req);
      page(
        res,
        200,
        m.subject,
        `<p><a href="/_/mail">← Development inbox</a></p><h1>${escapeHtml(m.subject)}</h1><p>To <strong>${escapeHtml(m.to)}</strong> · <time datetime="${escapeHtml(m.createdAt)}">${escapeHtml(m.createdAt)}</time> · <span class="muted">${escapeHtml(m.eventType)}</span></p><h2>Text</h2><pre>${linkify(m.text)}</pre><h2>HTML</h2><iframe title="The HTML of the email" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" src="/_/mail/${escapeHtml(m.id)}/html"></iframe>`,
      );
    },

    html(req: Request, res: Response): void {
      const m = message(req);
      // Links of the message open at the top level (svc's own pages refuse to be framed).
      const body = `<base target="_top">${m.html}`;
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Security-Policy', MESSAGE_CSP);
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    },
  };
}
