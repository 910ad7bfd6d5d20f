/**
 * The hosted pages (issue 30; docs/http.md, "Hosted pages"): what the links of svc's own emails
 * open, so sign-in works before an app has pages of its own.
 *
 * | Route | What it does |
 * | --- | --- |
 * | `GET /auth/magic?token=&redirectTo=` | a button; never spends the link (link scanners GET it) |
 * | `POST /auth/magic` | spends it: signed in (or redirected), or the MFA step |
 * | `POST /auth/mfa` | the MFA step of a page sign-in: a TOTP or recovery code |
 * | `GET /auth/reset?token=` | the new-password form |
 * | `POST /auth/reset/password` | sets it; errors (`PASSWORD_TOO_WEAK`, ...) shown on the field |
 * | `GET /auth/verify?token=` | (asked for HTML, as a browser does) verifies and shows the result |
 * | `GET /auth/passkey` | passkey sign-in (needs the script below and WebAuthn configured) |
 * | `POST /auth/passkey` | the assertion the script posts: signed in, or the MFA step |
 * | `GET /auth/pages/passkey.js` | the page's script |
 *
 * Defences: forms post only from this origin (an `Origin` of this server or a trusted origin; a
 * `null` or missing one only with `Sec-Fetch-Site: same-origin`; neither header: not a browser,
 * passes, as for the JSON routes), so another site cannot sign a visitor into its own account.
 * Every page: a CSP without inline script and `frame-ancestors 'none'`, `X-Frame-Options: DENY`,
 * `Referrer-Policy: no-referrer` (the token in the URL never leaves in a Referer), `Cache-Control:
 * no-store`. Tokens are never logged. Rate limits are the operations' own (the same as the JSON
 * routes'). `redirectTo` must match `redirectAllowList` (`./redirect.ts`).
 *
 * The session, after a page sign-in: the `auth_token` cookie when `cookie` is on; and, with an
 * allowed `redirectTo`, a 303 to it with the tokens in the fragment (`#access_token=…&
 * refresh_token=…&expires_in=…&expires_at=…&token_type=bearer&type=…`), as OAuth's implicit flow
 * and Supabase do: the fragment never reaches a server or a Referer, but it stays in the browser's
 * history and any script on that page can read it, so the app should read it at once and
 * replace the URL (`history.replaceState`). Without `redirectTo`, a page says who is signed in.
 */
import { SvcError, noteErrorCode } from '@svc/core';
import { isAuthResult } from '../session/sign-in';
import type { AuthRoute } from '../routes/define';
import type { AuthRequest } from '../http/request';
import type { Auth, AuthResult, MfaChallenge, RequestInfo, SignInResult } from '../types';
import { validateBranding } from '../branding';
import { PASSKEY_SCRIPT } from './passkey-script';
import { allowedRedirect, redirectOrigins, resolveRedirectAllowList } from './redirect';
import {
  escapeHtml,
  hiddenFields,
  pageCsp,
  pageLook,
  renderPage,
  type PageContent,
} from './render';

export interface PageCall {
  readonly request: AuthRequest;
  readonly url: URL;
  readonly info: RequestInfo;
}

export interface PageRoute extends AuthRoute {
  readonly serve: (call: PageCall) => Promise<Response>;
}

export interface PagesOptions {
  /** Where the routes are mounted (`/auth`). */
  readonly basePath: string;
  /** Origins besides the server's own whose pages may post the forms (the handler's). */
  readonly trustedOrigins: ReadonlySet<string>;
  /** The `Set-Cookie` value for a session, when the handler sets the `auth_token` cookie. */
  readonly cookieFor?: (result: AuthResult, url: URL) => string;
}

/** Largest form body the pages read (a passkey assertion is the biggest: a few KB). */
const FORM_LIMIT = 64 * 1024;
const SCRIPT_PATH = '/pages/passkey.js';
/** The envelope's code of a page's error status, when the operation gave none. */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'VALIDATION_ERROR',
  401: 'INVALID_TOKEN',
  403: 'ACCESS_DENIED',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

type Operations = Omit<Auth, 'handler'>;

export interface HostedPages {
  readonly routes: readonly PageRoute[];
  /** `GET /auth/verify` asked for HTML. */
  verify(call: PageCall): Promise<Response>;
}

/** Whether a request asks for a page (a browser navigation) rather than JSON. */
export function wantsHtml(request: AuthRequest): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /\btext\/html\b/i.test(accept);
}

export function createPages(auth: Operations, options: PagesOptions): HostedPages {
  const look = pageLook(validateBranding(auth.config.branding));
  const rules = resolveRedirectAllowList(auth.config.redirectAllowList);
  const csp = pageCsp(look, redirectOrigins(rules));
  const base = options.basePath;

  const headers = (extra: Record<string, string> = {}) =>
    new Headers({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    });
  const page = (
    call: PageCall,
    status: number,
    content: PageContent & { readonly code?: string; readonly text?: string },
    extra: Record<string, string> = {},
  ) => {
    const code =
      status >= 400 ? (content.code ?? STATUS_CODES[status] ?? 'VALIDATION_ERROR') : undefined;
    // An error to a client that did not ask for HTML (not a browser): the one JSON envelope.
    const response =
      code !== undefined && !wantsHtml(call.request)
        ? new Response(
            JSON.stringify({ code, error: `${code}: ${content.text ?? content.heading}` }),
            {
              status,
              headers: {
                'Content-Type': 'application/json; charset=utf-8',
                'Cache-Control': 'no-store',
                'X-Content-Type-Options': 'nosniff',
                ...extra,
              },
            },
          )
        : new Response(call.request.method === 'HEAD' ? null : renderPage(look, content), {
            status,
            headers: headers(extra),
          });
    // The page's error code, for the host's access log (the HTML page carries it as text only).
    if (code !== undefined) noteErrorCode(response, code);
    return response;
  };
  const message = (
    call: PageCall,
    status: number,
    heading: string,
    text: string,
    extra: Record<string, string> = {},
    code?: string,
  ) =>
    page(
      call,
      status,
      { heading, body: `<p>${escapeHtml(text)}</p>`, text, ...(code ? { code } : {}) },
      extra,
    );

  /** The redirect a request names, when it is allowed; `refused` when one was named but is not. */
  const redirectOf = (value: string | null, url: URL) => {
    const allowed = allowedRedirect(value, rules, url.origin);
    return { allowed, refused: Boolean(value) && !allowed };
  };
  const refusedNote = (refused: boolean) =>
    refused
      ? '<p class="muted" role="note">The address this link asked to continue to is not on this server’s allow-list, so you will stay here.</p>'
      : '';

  /** An error of an operation as a page (the link is dead, too many tries, ...). */
  const failure = (call: PageCall, err: unknown, what: string): Response => {
    if (!(err instanceof SvcError)) throw err;
    if (!wantsHtml(call.request) || err.status >= 500) throw err; // the JSON envelope, as the API's
    if (err.code === 'RATE_LIMITED') {
      return message(
        call,
        429,
        'Too many attempts',
        'Too many attempts from here. Wait a minute and try again.',
        err.headers?.['Retry-After'] ? { 'Retry-After': err.headers['Retry-After'] } : {},
      );
    }
    if (err.code === 'INVALID_TOKEN' || err.code === 'TOKEN_EXPIRED') {
      return message(
        call,
        400,
        'This link has expired',
        `This ${what} link is invalid, expired or already used. Ask for a new one.`,
      );
    }
    if (err.code === 'USER_INACTIVE')
      return message(call, 403, 'Account disabled', 'This account is deactivated.');
    if (err.code === 'EMAIL_NOT_VERIFIED')
      return message(call, 403, 'Email not verified', 'Verify your email address first.');
    return message(call, err.status, 'That did not work', err.message);
  };

  /** The browser form's origin check; a refusal answers 403 with a page. */
  const foreign = (call: PageCall): Response | undefined => {
    const h = call.request.headers;
    const origin = h.get('origin');
    const site = h.get('sec-fetch-site')?.trim().toLowerCase();
    const own = call.url.origin;
    if (origin && origin !== 'null') {
      if (origin === own || options.trustedOrigins.has(origin)) return undefined;
    } else if (site === 'same-origin' || (origin === null && site === undefined)) {
      return undefined;
    }
    return message(
      call,
      403,
      'Request refused',
      'This form can only be sent from this site’s own page. Open the link from your email again.',
    );
  };

  const readForm = async (call: PageCall): Promise<URLSearchParams | Response> => {
    const type = (call.request.headers.get('content-type') ?? '').split(';')[0]?.trim();
    if (type !== 'application/x-www-form-urlencoded') {
      return message(call, 415, 'Unsupported form', 'Send the form from the page.');
    }
    const text = await call.request.text();
    if (text.length > FORM_LIMIT)
      return message(call, 413, 'Form too large', 'The form is too large.');
    return new URLSearchParams(text);
  };

  const field = (name: string, label: string, input: string, error?: string) => {
    const id = `f-${name}`;
    const err = error
      ? `<p class="field-error" id="${id}-error" role="alert">${escapeHtml(error)}</p>`
      : '';
    return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${escapeHtml(name)}" ${input}${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${err}`;
  };

  /** After a sign-in: the MFA step, or the session handed over. */
  const signedIn = (
    call: PageCall,
    result: SignInResult,
    redirectTo: string | null,
    kind: string,
  ): Response => {
    if (!isAuthResult(result)) return mfaForm(call, result as MfaChallenge, redirectTo);
    const cookie = options.cookieFor?.(result, call.url);
    const { allowed, refused } = redirectOf(redirectTo, call.url);
    if (allowed) {
      const expiresIn = auth.config.tokenExpiry;
      const fragment = new URLSearchParams({
        access_token: result.token,
        refresh_token: result.refreshToken,
        expires_in: String(expiresIn),
        expires_at: String(Math.floor(Date.parse(result.session.expiresAt) / 1000)),
        token_type: 'bearer',
        type: kind,
      });
      const h = headers({ Location: `${allowed.href}#${fragment}` });
      h.delete('Content-Type');
      if (cookie) h.append('Set-Cookie', cookie);
      return new Response(null, { status: 303, headers: h });
    }
    const response = page(call, 200, {
      heading: 'You are signed in',
      body: `<p class="ok" aria-hidden="true">✓</p><p>Signed in as <strong>${escapeHtml(result.user.email)}</strong>.</p>${refusedNote(refused)}<p class="muted">You can close this page.</p>`,
    });
    if (cookie) response.headers.append('Set-Cookie', cookie);
    return response;
  };

  const mfaForm = (
    call: PageCall,
    challenge: Pick<MfaChallenge, 'challengeToken' | 'methods'>,
    redirectTo: string | null,
    error?: string,
    method: string = 'totp',
  ): Response => {
    const both = challenge.methods.includes('recovery_code');
    const choice = both
      ? `<fieldset><legend>Use</legend><label class="choice"><input type="radio" name="method" value="totp"${method !== 'recovery_code' ? ' checked' : ''}> a code from your authenticator app</label><label class="choice"><input type="radio" name="method" value="recovery_code"${method === 'recovery_code' ? ' checked' : ''}> a recovery code</label></fieldset>`
      : hiddenFields({ method: 'totp' });
    return page(call, error ? 400 : 200, {
      code: 'INVALID_CREDENTIALS',
      ...(error ? { text: error } : {}),
      heading: 'Two-step verification',
      body: `<p>Enter the 6-digit code from your authenticator app${both ? ', or one of your recovery codes' : ''}.</p>
<form method="post" action="${escapeHtml(`${base}/mfa`)}">${hiddenFields({ challengeToken: challenge.challengeToken, redirectTo: redirectTo ?? undefined, methods: challenge.methods.join(' ') })}${choice}${field('code', 'Code', 'type="text" autocomplete="one-time-code" required autofocus spellcheck="false" maxlength="32"', error)}<button type="submit">Verify</button></form>`,
    });
  };

  const magicGet = async (call: PageCall) => {
    const token = call.url.searchParams.get('token');
    if (!token)
      return message(
        call,
        400,
        'Incomplete link',
        'This sign-in link is incomplete. Copy the whole link from your email.',
      );
    const redirectTo = call.url.searchParams.get('redirectTo');
    const { refused } = redirectOf(redirectTo, call.url);
    return page(call, 200, {
      heading: `Sign in to ${look.branding.appName}`,
      body: `<p>Press the button to finish signing in. The link works once.</p>
<form method="post" action="${escapeHtml(`${base}/magic`)}">${hiddenFields({ token, redirectTo: refused ? undefined : (redirectTo ?? undefined) })}<button type="submit" autofocus>Sign in</button></form>${refusedNote(refused)}`,
    });
  };

  const magicPost = async (call: PageCall) => {
    const refusal = foreign(call);
    if (refusal) return refusal;
    const form = await readForm(call);
    if (form instanceof Response) return form;
    const token = form.get('token');
    if (!token) return message(call, 400, 'Incomplete link', 'The sign-in link is missing.');
    try {
      const result = await auth.consumeMagicLink(token, call.info);
      return signedIn(call, result, form.get('redirectTo'), 'magiclink');
    } catch (err) {
      return failure(call, err, 'sign-in');
    }
  };

  const mfaPost = async (call: PageCall) => {
    const refusal = foreign(call);
    if (refusal) return refusal;
    const form = await readForm(call);
    if (form instanceof Response) return form;
    const challengeToken = form.get('challengeToken') ?? '';
    const code = (form.get('code') ?? '').trim();
    const method = form.get('method') === 'recovery_code' ? 'recovery_code' : 'totp';
    const methods = (form.get('methods') ?? 'totp')
      .split(' ')
      .filter((m): m is 'totp' | 'recovery_code' => m === 'totp' || m === 'recovery_code');
    const redirectTo = form.get('redirectTo');
    const again = (error: string) =>
      mfaForm(
        call,
        { challengeToken, methods: methods.length ? methods : ['totp'] },
        redirectTo,
        error,
        method,
      );
    if (!code) return again('Enter the code.');
    try {
      const result =
        method === 'recovery_code'
          ? await auth.mfa.recoveryCodeLogin(challengeToken, code, call.info)
          : await auth.mfa.totpLogin(challengeToken, code, call.info);
      return signedIn(
        call,
        result,
        redirectTo,
        method === 'totp' ? 'mfa_totp' : 'mfa_recovery_code',
      );
    } catch (err) {
      if (
        err instanceof SvcError &&
        (err.code === 'INVALID_CREDENTIALS' || err.code === 'VALIDATION_ERROR')
      )
        return again(
          method === 'totp'
            ? 'That code is not right. Enter the current 6-digit code.'
            : 'That recovery code is not right.',
        );
      if (err instanceof SvcError && err.code === 'INVALID_TOKEN')
        return message(
          call,
          400,
          'Sign-in expired',
          'This sign-in took too long or was used. Start again from a new link.',
        );
      return failure(call, err, 'sign-in');
    }
  };

  const resetForm = (
    call: PageCall,
    token: string,
    redirectTo: string | null,
    errors: { password?: string; confirm?: string; code?: string } = {},
  ) =>
    page(call, errors.password || errors.confirm ? 400 : 200, {
      code: errors.code ?? 'VALIDATION_ERROR',
      text: errors.password ?? errors.confirm ?? '',
      heading: 'Choose a new password',
      body: `<form method="post" action="${escapeHtml(`${base}/reset/password`)}">${hiddenFields({ token, redirectTo: redirectTo ?? undefined })}${field('password', 'New password', 'type="password" autocomplete="new-password" required autofocus', errors.password)}${field('confirm', 'Repeat the new password', 'type="password" autocomplete="new-password" required', errors.confirm)}<button type="submit">Set password</button></form>
<p class="muted">Setting a new password signs you out everywhere.</p>`,
    });

  const resetGet = async (call: PageCall) => {
    const token = call.url.searchParams.get('token');
    if (!token)
      return message(
        call,
        400,
        'Incomplete link',
        'This password reset link is incomplete. Copy the whole link from your email.',
      );
    const redirectTo = call.url.searchParams.get('redirectTo');
    return resetForm(call, token, redirectOf(redirectTo, call.url).allowed ? redirectTo : null);
  };

  const resetPost = async (call: PageCall) => {
    const refusal = foreign(call);
    if (refusal) return refusal;
    const form = await readForm(call);
    if (form instanceof Response) return form;
    const token = form.get('token');
    const password = form.get('password') ?? '';
    const confirm = form.get('confirm') ?? '';
    const redirectTo = form.get('redirectTo');
    if (!token) return message(call, 400, 'Incomplete link', 'The password reset link is missing.');
    if (!password) return resetForm(call, token, redirectTo, { password: 'Enter a new password.' });
    if (password !== confirm)
      return resetForm(call, token, redirectTo, { confirm: 'The two passwords are not the same.' });
    try {
      await auth.confirmReset(token, password);
    } catch (err) {
      if (
        err instanceof SvcError &&
        (err.code === 'PASSWORD_TOO_WEAK' || err.code === 'VALIDATION_ERROR')
      )
        return resetForm(call, token, redirectTo, {
          password: err.message.replace(/^[A-Z_]+: /, ''),
          code: err.code,
        });
      return failure(call, err, 'password reset');
    }
    const { allowed } = redirectOf(redirectTo, call.url);
    return page(call, 200, {
      heading: 'Password changed',
      body: `<p class="ok" aria-hidden="true">✓</p><p>Your password has been changed. Sign in with your new password.</p>${allowed ? `<p><a href="${escapeHtml(allowed.href)}">Continue</a></p>` : ''}`,
    });
  };

  const passkeyGet = async (call: PageCall) => {
    if (!auth.config.webauthn)
      return message(
        call,
        404,
        'Passkeys are off',
        'Passkey sign-in is not enabled on this server.',
      );
    const redirectTo = call.url.searchParams.get('redirectTo');
    const { refused } = redirectOf(redirectTo, call.url);
    return page(call, 200, {
      heading: `Sign in to ${look.branding.appName}`,
      script: `${base}${SCRIPT_PATH}`,
      body: `<form id="passkey-start" data-begin="${escapeHtml(`${base}/webauthn/login/begin`)}" hidden>${field('email', 'Email (optional)', 'type="email" autocomplete="username webauthn" spellcheck="false"')}<button type="submit">Sign in with a passkey</button></form>
<p id="passkey-status" class="alert" role="alert" hidden></p>
<noscript><p>Passkey sign-in needs JavaScript: your browser talks to your passkey through it. Use the sign-in link from your email instead.</p></noscript>
<form id="passkey-finish" method="post" action="${escapeHtml(`${base}/passkey`)}" hidden>${hiddenFields({ redirectTo: refused ? undefined : (redirectTo ?? undefined) })}${['challengeId', 'credentialId', 'clientDataJSON', 'authenticatorData', 'signature', 'userHandle'].map((n) => `<input type="hidden" name="${n}" value="">`).join('')}</form>${refusedNote(refused)}`,
    });
  };

  const passkeyPost = async (call: PageCall) => {
    const refusal = foreign(call);
    if (refusal) return refusal;
    const form = await readForm(call);
    if (form instanceof Response) return form;
    const get = (name: string) => form.get(name) ?? '';
    try {
      const result = await auth.webauthn.loginFinish(
        {
          challengeId: get('challengeId'),
          credentialId: get('credentialId'),
          clientDataJSON: get('clientDataJSON'),
          authenticatorData: get('authenticatorData'),
          signature: get('signature'),
          ...(get('userHandle') ? { userHandle: get('userHandle') } : {}),
        },
        call.info,
      );
      return signedIn(call, result, form.get('redirectTo'), 'passkey');
    } catch (err) {
      if (
        err instanceof SvcError &&
        (err.code === 'INVALID_TOKEN' || err.code === 'INVALID_CREDENTIALS')
      )
        return message(
          call,
          401,
          'Passkey not accepted',
          'That passkey could not sign you in. Try again.',
        );
      return failure(call, err, 'sign-in');
    }
  };

  const script = async (call: PageCall) =>
    new Response(call.request.method === 'HEAD' ? null : PASSKEY_SCRIPT, {
      status: 200,
      headers: {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      },
    });

  const route = (
    method: 'GET' | 'POST',
    path: string,
    serve: (call: PageCall) => Promise<Response>,
  ): PageRoute => Object.freeze({ method, path, access: 'public', feature: 'pages', serve });

  return {
    routes: [
      route('GET', '/magic', magicGet),
      route('POST', '/magic', magicPost),
      route('POST', '/mfa', mfaPost),
      route('GET', '/reset', resetGet),
      route('POST', '/reset/password', resetPost),
      route('GET', '/passkey', passkeyGet),
      route('POST', '/passkey', passkeyPost),
      route('GET', SCRIPT_PATH, script),
    ],
    async verify(call) {
      const token = call.url.searchParams.get('token');
      if (!token)
        return message(
          call,
          400,
          'Incomplete link',
          'This verification link is incomplete. Copy the whole link from your email.',
        );
      try {
        await auth.verifyEmail(token);
      } catch (err) {
        return failure(call, err, 'verification');
      }
      return page(call, 200, {
        heading: 'Email verified',
        body: '<p class="ok" aria-hidden="true">✓</p><p>Your email address is verified. You can close this page.</p>',
      });
    },
  };
}

/** The lockdown rows of the pages (`AUTH_ROUTES`): every one public. */
export const PAGE_ROUTE_ROWS: readonly AuthRoute[] = Object.freeze(
  (
    [
      ['GET', '/magic'],
      ['POST', '/magic'],
      ['POST', '/mfa'],
      ['GET', '/reset'],
      ['POST', '/reset/password'],
      ['GET', '/passkey'],
      ['POST', '/passkey'],
      ['GET', SCRIPT_PATH],
    ] as const
  ).map(
    ([method, path]) =>
      Object.freeze({ method, path, access: 'public', feature: 'pages' }) as AuthRoute,
  ),
);
