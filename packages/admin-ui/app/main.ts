/**
 * The admin UI: sign-in, then the sections (Data, Query, Schema, Users, Health) and the signed-in
 * superuser's Account. Routes are paths under `/_/` (the server answers index.html for each);
 * navigation uses the History API. The session is the admin UI's own cookies, set by
 * `/_/api/session/*` and kept fresh by api.ts.
 */
import {
  ApiError,
  call,
  keepFresh,
  refreshSession,
  type SessionInfo,
  stopRefreshing,
  whenUnauthorized,
} from './api';
import { accountView } from './account';
import type { ViewContext } from './view';
import { h, replace } from '@svc/dom';
import { dataView } from './data';
import { queryView } from './query';
import { schemaView } from './schema';
import { healthView } from './health';
import { passkeySignIn, passkeysAvailable, type SignInAnswer } from './passkey';
import { usersView } from './users';

const BASE = '/_/';
const root = document.getElementById('app') as HTMLElement;
let session: SessionInfo | undefined;

export function navigate(path: string): void {
  if (location.pathname + location.search !== path) history.pushState(null, '', path);
  void render();
}

window.addEventListener('popstate', () => void render());
// Links inside the app navigate without reloading (plain clicks on a[data-nav]).
document.addEventListener('click', (event) => {
  const a = (event.target as Element | null)?.closest?.('a[data-nav]');
  if (!a || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(a.getAttribute('href') ?? BASE);
});

whenUnauthorized((err) => {
  stopRefreshing();
  session = session ? { ...session, caller: null } : undefined;
  showSignIn(
    err.code === 'TOKEN_EXPIRED' || err.code === 'SESSION_EXPIRED'
      ? 'Your session has ended: sign in again.'
      : undefined,
  );
});

async function loadSession(): Promise<SessionInfo> {
  return (await call<SessionInfo>('/_/api/session', { quiet401: true })).data;
}

async function start(): Promise<void> {
  let stale = false;
  try {
    try {
      session = await loadSession();
    } catch (err) {
      // A dead access cookie (expired or revoked): the refresh cookie may still give a session.
      if (!(err instanceof ApiError && err.status === 401)) throw err;
      stale = true;
    }
    // Back on the page: the refresh cookie, when there is one, gives a fresh access token and
    // says when it expires (so it is refreshed before then).
    if ((stale || session?.auth) && (await refreshSession())) {
      session = await loadSession();
      stale = false;
    }
  } catch (err) {
    showProblem('svc did not answer', String(err instanceof Error ? err.message : err));
    return;
  }
  if (stale) {
    session = undefined;
    showSignIn('Your session has ended: sign in again.');
    return;
  }
  await render();
}

function showProblem(title: string, ...lines: string[]): void {
  replace(
    root,
    h(
      'main',
      { class: 'center' },
      h('div', { class: 'card' }, h('h1', null, title), ...lines.map((l) => h('p', null, l))),
    ),
  );
}

function showSignIn(
  notice?: string,
  info: SessionInfo | undefined = session,
  tone: 'error' | 'info' = 'error',
): void {
  if (info && !info.auth) {
    showProblem(
      'The admin UI needs auth',
      'This server runs without the built-in auth, so there is no superuser to sign in as.',
      'Start it with enableAuth (and a JWT secret), and create a superuser with: svc admin create-superuser.',
    );
    return;
  }
  const message = h(
    'p',
    { class: tone === 'info' ? 'message info' : 'message', role: 'alert' },
    notice ?? '',
  );
  const login = h('input', {
    id: 'signin-login',
    name: 'login',
    autocomplete: 'username',
    required: true,
  });
  const password = h('input', {
    id: 'signin-password',
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const passkey =
    info?.passkey && passkeysAvailable()
      ? h(
          'button',
          { type: 'button', id: 'signin-passkey', class: 'wide' },
          'Sign in with a passkey',
        )
      : null;
  passkey?.addEventListener('click', () => {
    passkey.disabled = true;
    message.textContent = '';
    message.classList.remove('info');
    passkeySignIn(login.value.trim().includes('@') ? login.value.trim() : '')
      .then((answer) => signedIn(answer, message))
      .catch((err: unknown) => {
        message.textContent =
          err instanceof DOMException ? 'The passkey sign-in was cancelled.' : signInError(err);
      })
      .finally(() => {
        passkey.disabled = false;
      });
  });
  const form = h(
    'form',
    { class: 'card signin', id: 'signin-form' },
    h('h1', null, 'svc admin'),
    h('p', { class: 'muted' }, 'Sign in as a superuser.'),
    h('label', { for: 'signin-login' }, 'Email or username'),
    login,
    h('label', { for: 'signin-password' }, 'Password'),
    password,
    button,
    passkey,
    message,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    message.textContent = '';
    message.classList.remove('info');
    const id = login.value.trim();
    const body = id.includes('@')
      ? { email: id, password: password.value }
      : { username: id, password: password.value };
    void signIn('/_/api/session/login', body, message).finally(() => {
      button.disabled = false;
    });
  });
  replace(root, h('main', { class: 'center' }, form));
  login.focus();
}

async function signIn(path: string, body: unknown, message: HTMLElement): Promise<void> {
  let answer: SignInAnswer;
  try {
    answer = (await call<SignInAnswer>(path, { method: 'POST', body, quiet401: true })).data;
  } catch (err) {
    message.textContent = signInError(err);
    return;
  }
  await signedIn(answer, message);
}

/** A sign-in's answer: the MFA step still owed, or the session (its cookies set). */
async function signedIn(answer: SignInAnswer, message: HTMLElement): Promise<void> {
  if ('mfaRequired' in answer) {
    showTotp(answer.challengeToken, answer.methods);
    return;
  }
  keepFresh(answer.expiresAt);
  await afterSignIn(message);
}

function signInError(err: unknown): string {
  if (!(err instanceof ApiError)) return 'svc did not answer.';
  switch (err.code) {
    case 'INVALID_CREDENTIALS':
      return 'Wrong email, username, password or code.';
    case 'RATE_LIMITED':
      return 'Too many attempts: wait a little and try again.';
    case 'USER_INACTIVE':
      return 'This account is deactivated.';
    case 'ACCESS_DENIED':
      // svc's own words: who is not a superuser, and how one is made.
      return [err.envelope.error.replace(/^ACCESS_DENIED: /, ''), err.envelope.hint]
        .filter(Boolean)
        .join('. ');
    default:
      return err.message;
  }
}

/** The session now in the cookie: a superuser goes on; anyone else is signed out again. */
async function afterSignIn(message: HTMLElement): Promise<void> {
  let info: SessionInfo;
  try {
    info = await loadSession();
  } catch (err) {
    message.textContent = signInError(err);
    return;
  }
  if (!info.caller) {
    message.textContent =
      'Signed in, but the session cookie did not come back: behind a proxy, serve /_/ as it is and list the public origin in cors.origins.';
    return;
  }
  if (!info.caller.superuser) {
    const email = info.caller.email;
    await signOutQuietly();
    session = { ...info, caller: null };
    showSignIn(
      `${email} is not a superuser: the admin UI is for users with the role "superuser" (svc admin create-superuser, or svc admin assign-role <email> superuser).`,
    );
    return;
  }
  session = info;
  if (location.pathname === BASE || !location.pathname.startsWith(BASE)) {
    history.replaceState(null, '', `${BASE}data`);
  }
  await render();
}

function showTotp(challengeToken: string, methods: string[]): void {
  const message = h('p', { class: 'message', role: 'alert' });
  const code = h('input', {
    id: 'totp-code',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    required: true,
  });
  const recovery = h('input', { type: 'checkbox', id: 'totp-recovery' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Verify');
  const form = h(
    'form',
    { class: 'card signin', id: 'totp-form' },
    h('h1', null, 'Two-factor check'),
    h('p', { class: 'muted' }, 'Enter the 6-digit code from your authenticator app.'),
    h('label', { for: 'totp-code' }, 'Code'),
    code,
    methods.includes('recovery_code') || methods.includes('recovery-codes')
      ? h('label', { class: 'inline' }, recovery, ' a recovery code instead')
      : null,
    button,
    message,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    const path = recovery.checked ? '/_/api/session/recovery-code' : '/_/api/session/totp';
    void signIn(path, { challengeToken, code: code.value.trim() }, message).finally(() => {
      button.disabled = false;
    });
  });
  replace(root, h('main', { class: 'center' }, form));
  code.focus();
}

/** Ends the session on svc (revoked, both cookies cleared) and stops refreshing it. */
async function signOutQuietly(): Promise<void> {
  stopRefreshing();
  await call('/_/api/session/logout', { method: 'POST', quiet401: true }).catch(() => undefined);
}

async function signOut(): Promise<void> {
  await signOutQuietly();
  session = session ? { ...session, caller: null } : undefined;
  history.replaceState(null, '', BASE);
  showSignIn('Signed out.', session, 'info');
}

const SECTIONS: { path: string; label: string }[] = [
  { path: 'data', label: 'Data' },
  { path: 'query', label: 'Query' },
  { path: 'schema', label: 'Schema' },
  { path: 'users', label: 'Users' },
  { path: 'health', label: 'Health' },
];

async function render(): Promise<void> {
  if (!session || !session.caller?.superuser) {
    showSignIn(undefined, session);
    return;
  }
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  const [section = 'data', ...parts] = rest.split('/').map((p) => decodeURIComponent(p));
  const current =
    section === 'account' || SECTIONS.some((s) => s.path === section) ? section : 'data';
  const content = h('section', { class: 'content', id: 'content' });
  const nav = h(
    'nav',
    { class: 'top' },
    h('span', { class: 'brand' }, 'svc admin'),
    ...SECTIONS.map((s) =>
      h(
        'a',
        {
          href: `${BASE}${s.path}`,
          'data-nav': true,
          class: s.path === current ? 'active' : '',
        },
        s.label,
      ),
    ),
    h('span', { class: 'spacer' }),
    h(
      'a',
      {
        href: `${BASE}account`,
        'data-nav': true,
        class: current === 'account' ? 'who active' : 'who',
        id: 'who',
        title: 'Your account: passkeys and two-factor',
      },
      session.caller.email,
    ),
    h('button', { type: 'button', id: 'signout', onclick: () => void signOut() }, 'Sign out'),
  );
  replace(root, nav, content);
  const ctx = { session, navigate };
  try {
    await show(current, content, ctx, parts);
  } catch (err) {
    // A 401 has already gone back to sign-in; anything else is said where the view would be.
    if (err instanceof ApiError && err.status === 401) return;
    replace(
      content,
      h('p', { class: 'message', role: 'alert' }, err instanceof Error ? err.message : String(err)),
    );
  }
}

async function show(
  current: string,
  content: HTMLElement,
  ctx: ViewContext,
  parts: string[],
): Promise<void> {
  switch (current) {
    case 'query':
      await queryView(content, ctx);
      break;
    case 'schema':
      await schemaView(content, ctx);
      break;
    case 'users':
      await usersView(content, ctx, parts);
      break;
    case 'health':
      await healthView(content, ctx);
      break;
    case 'account':
      await accountView(content, ctx);
      break;
    default:
      await dataView(content, ctx, parts);
  }
}

void start();
