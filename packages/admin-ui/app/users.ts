/**
 * Users (superusers only, through `/_/api/users*`): search, view, create, deactivate and
 * reactivate, roles, ending every session of a user, their MFA and passkeys (reset MFA, remove a
 * passkey), and the password reset email. The section's other tabs: roles, settings.
 */
import { ApiError, call } from './api';
import { h, replace } from '@svc/dom';
import { authTabs, rolesView, settingsView } from './roles';
import { grid, type Passkey, passkeyTable, type ViewContext, when } from './view';

interface Factors {
  totp: 'none' | 'pending' | 'confirmed';
  recoveryCodesLeft: number;
  passkeys: Passkey[];
}

interface User {
  id: string;
  email: string;
  username?: string;
  emailVerified: boolean;
  active: boolean;
  createdAt: string;
  roles: string[];
}

interface Session {
  id: string;
  createdAt: string;
  lastActivityAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  device: string | null;
}

interface UserPage {
  users: User[];
  total: number;
  limit: number;
  offset: number;
}

const BASE = '/_/users';

export async function usersView(el: HTMLElement, ctx: ViewContext, parts: string[]): Promise<void> {
  const [id] = parts;
  // User ids are UUIDs: these two names are the section's other tabs.
  if (id === 'roles') return rolesView(el, ctx);
  if (id === 'settings') return settingsView(el);
  if (id) return userPage(el, ctx, id);
  const params = new URLSearchParams(location.search);
  const search = params.get('search') ?? '';
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const input = h('input', {
    id: 'user-search',
    value: search,
    placeholder: 'email, username or id',
    'aria-label': 'Search users',
  });
  const form = h(
    'form',
    { class: 'filters', id: 'user-search-form' },
    input,
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = input.value.trim();
    ctx.navigate(q ? `${BASE}?search=${encodeURIComponent(q)}` : BASE);
  });
  const qs = new URLSearchParams();
  if (search) qs.set('search', search);
  if (offset) qs.set('offset', String(offset));
  const page = (await call<UserPage>(`/_/api/users?${qs}`)).data;
  const newEmail = h('input', {
    id: 'new-user-email',
    type: 'email',
    placeholder: 'email',
    'aria-label': 'New user email',
  });
  const newPassword = h('input', {
    id: 'new-user-password',
    type: 'password',
    placeholder: 'password',
    autocomplete: 'new-password',
    'aria-label': 'New user password',
  });
  const newVerified = h('input', { id: 'new-user-verified', type: 'checkbox' });
  const createStatus = h('p', { class: 'message', role: 'alert', id: 'new-user-status' });
  const createForm = h(
    'form',
    { class: 'filters', id: 'new-user-form' },
    newEmail,
    newPassword,
    h('label', { class: 'check' }, newVerified, ' email verified'),
    h('button', { type: 'submit', class: 'primary' }, 'Create user'),
  );
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    createStatus.textContent = '';
    void call<User>('/_/api/users', {
      method: 'POST',
      body: {
        email: newEmail.value.trim(),
        password: newPassword.value,
        emailVerified: newVerified.checked,
      },
    }).then(
      (a) => ctx.navigate(`${BASE}/${encodeURIComponent(a.data.id)}`),
      (err: unknown) => {
        createStatus.textContent = err instanceof ApiError ? err.envelope.error : String(err);
      },
    );
  });
  const go = (o: number) => {
    const next = new URLSearchParams(qs);
    next.set('offset', String(o));
    ctx.navigate(`${BASE}?${next}`);
  };
  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      authTabs('users'),
      h('h2', null, 'Users ', h('span', { class: 'muted' }, `(${page.total})`)),
      form,
      grid(
        { class: 'grid', id: 'users' },
        ['email', 'username', 'roles', 'status', 'created'],
        page.users.map((u) =>
          h(
            'tr',
            { 'data-email': u.email },
            h(
              'td',
              null,
              h('a', { href: `${BASE}/${encodeURIComponent(u.id)}`, 'data-nav': true }, u.email),
            ),
            h('td', null, u.username ?? ''),
            h('td', null, u.roles.join(', ')),
            h('td', { class: u.active ? '' : 'message' }, u.active ? 'active' : 'deactivated'),
            h('td', null, when(u.createdAt)),
          ),
        ),
      ),
      h(
        'div',
        { class: 'pager' },
        h(
          'button',
          {
            type: 'button',
            disabled: page.offset === 0,
            onclick: () => go(Math.max(0, page.offset - page.limit)),
          },
          '‹ Previous',
        ),
        h(
          'span',
          null,
          page.users.length
            ? `${page.offset + 1}–${page.offset + page.users.length} of ${page.total}`
            : 'no users',
        ),
        h(
          'button',
          {
            type: 'button',
            disabled: page.offset + page.users.length >= page.total,
            onclick: () => go(page.offset + page.limit),
          },
          'Next ›',
        ),
      ),
      h(
        'section',
        { class: 'card', id: 'new-user' },
        h('h3', null, 'New user'),
        h(
          'p',
          { class: 'muted' },
          'Created active, with this password (the password policy applies). To let them choose their own, send them the password reset email from their page.',
        ),
        createForm,
        createStatus,
      ),
    ),
  );
}

async function userPage(el: HTMLElement, ctx: ViewContext, id: string): Promise<void> {
  const url = `/_/api/users/${encodeURIComponent(id)}`;
  const [user, sessions, factors] = await Promise.all([
    call<User>(url).then((a) => a.data),
    call<{ sessions: Session[] }>(`${url}/sessions`).then((a) => a.data.sessions),
    call<Factors>(`${url}/factors`).then((a) => a.data),
  ]);
  const status = h('p', { class: 'message', role: 'alert', id: 'user-status' });
  const done = h('p', { class: 'ok', id: 'user-done' });
  const act = async (fn: () => Promise<string>) => {
    status.textContent = '';
    done.textContent = '';
    try {
      const message = await fn();
      await userPage(el, ctx, id);
      const shown = document.getElementById('user-done');
      if (shown) shown.textContent = message;
    } catch (err) {
      status.textContent = err instanceof ApiError ? err.envelope.error : String(err);
    }
  };
  const role = h('input', { id: 'role-name', placeholder: 'role', 'aria-label': 'Role to assign' });
  const roleForm = h(
    'form',
    { class: 'filters', id: 'role-form' },
    role,
    h('button', { type: 'submit' }, 'Assign role'),
  );
  roleForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = role.value.trim();
    if (!name) return;
    void act(async () => {
      await call(`${url}/roles`, { method: 'POST', body: { role: name } });
      return `Role ${name} assigned (in the user's tokens from their next sign-in).`;
    });
  });
  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      h('p', null, h('a', { href: BASE, 'data-nav': true }, '‹ Users')),
      h(
        'section',
        { class: 'card record', id: 'user' },
        h(
          'h2',
          null,
          user.email,
          user.active ? null : h('span', { class: 'badge' }, 'deactivated'),
        ),
        h(
          'table',
          { class: 'grid inner' },
          h(
            'tbody',
            null,
            ...(
              [
                ['id', user.id],
                ['username', user.username ?? '—'],
                ['email verified', user.emailVerified ? 'yes' : 'no'],
                ['status', user.active ? 'active' : 'deactivated'],
                ['created', user.createdAt],
              ] as const
            ).map(([k, v]) => h('tr', null, h('th', null, k), h('td', { class: 'mono' }, v))),
          ),
        ),
        h('h4', null, 'Roles'),
        h(
          'div',
          { class: 'filters', id: 'roles' },
          user.roles.length === 0 ? h('span', { class: 'muted' }, 'none') : null,
          ...user.roles.map((r) =>
            h(
              'span',
              { class: 'chip' },
              `${r} `,
              h(
                'button',
                {
                  type: 'button',
                  class: 'link',
                  title: `take ${r} away`,
                  onclick: () =>
                    void act(async () => {
                      await call(`${url}/roles/${encodeURIComponent(r)}`, { method: 'DELETE' });
                      return `Role ${r} taken away.`;
                    }),
                },
                '×',
              ),
            ),
          ),
        ),
        roleForm,
        h('h4', null, `Live sessions (${sessions.length})`),
        sessions.length === 0
          ? h('p', { class: 'muted', id: 'sessions' }, 'No live session.')
          : grid(
              { class: 'grid', id: 'sessions' },
              ['started', 'last active', 'device', 'address', ''],
              sessions.map((x) =>
                h(
                  'tr',
                  { 'data-session': x.id },
                  h('td', null, when(x.createdAt)),
                  h('td', null, when(x.lastActivityAt)),
                  h('td', { title: x.userAgent ?? '' }, x.device ?? x.userAgent ?? '—'),
                  h('td', { class: 'mono' }, x.ip ?? '—'),
                  h(
                    'td',
                    null,
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'danger revoke',
                        onclick: () =>
                          void act(async () => {
                            await call(`${url}/sessions/${encodeURIComponent(x.id)}`, {
                              method: 'DELETE',
                            });
                            return 'Session revoked.';
                          }),
                      },
                      'Revoke',
                    ),
                  ),
                ),
              ),
            ),
        h('h4', null, 'MFA and passkeys'),
        h(
          'table',
          { class: 'grid inner', id: 'factors' },
          h(
            'tbody',
            null,
            h(
              'tr',
              null,
              h('th', null, 'TOTP'),
              h(
                'td',
                { id: 'factor-totp' },
                factors.totp === 'confirmed'
                  ? 'enrolled'
                  : factors.totp === 'pending'
                    ? 'enrolment begun, not confirmed'
                    : 'not enrolled',
              ),
            ),
            h(
              'tr',
              null,
              h('th', null, 'recovery codes left'),
              h('td', { id: 'factor-codes' }, String(factors.recoveryCodesLeft)),
            ),
          ),
        ),
        passkeyTable(factors.passkeys, {
          headers: ['passkey', 'created', 'last used'],
          empty: 'No passkey.',
          never: 'never',
          removeClass: 'danger remove-passkey',
          confirmText: (p) => `Remove the passkey "${p.name}" of ${user.email}?`,
          remove: (p) =>
            void act(async () => {
              await call(`${url}/passkeys/${encodeURIComponent(p.id)}`, { method: 'DELETE' });
              return `Passkey ${p.name} removed.`;
            }),
        }),
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              id: 'send-reset',
              onclick: () =>
                void act(async () => {
                  await call(`${url}/password-reset`, { method: 'POST' });
                  return `Password reset email sent to ${user.email}.`;
                }),
            },
            'Send password reset email',
          ),
          h(
            'button',
            {
              type: 'button',
              id: 'reset-mfa',
              class: 'danger',
              disabled: factors.totp === 'none' && factors.recoveryCodesLeft === 0,
              onclick: () => {
                if (!confirm(`Remove the TOTP and recovery codes of ${user.email}?`)) return;
                void act(async () => {
                  await call(`${url}/reset-mfa`, { method: 'POST' });
                  return 'MFA reset: TOTP and recovery codes removed.';
                });
              },
            },
            'Reset MFA',
          ),
        ),
        h('h4', null, 'Access'),
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              id: 'revoke-sessions',
              class: 'danger',
              onclick: () =>
                void act(async () => {
                  const r = (
                    await call<{ revoked: number }>(`${url}/revoke-sessions`, { method: 'POST' })
                  ).data;
                  return `${r.revoked} ${r.revoked === 1 ? 'session' : 'sessions'} revoked.`;
                }),
            },
            'Revoke all sessions',
          ),
          h(
            'button',
            {
              type: 'button',
              id: 'toggle-active',
              class: user.active ? 'danger' : 'primary',
              onclick: () =>
                void act(async () => {
                  await call(`${url}/active`, { method: 'POST', body: { active: !user.active } });
                  return user.active ? 'Deactivated; their sessions ended.' : 'Reactivated.';
                }),
            },
            user.active ? 'Deactivate' : 'Reactivate',
          ),
        ),
        done,
        status,
      ),
    ),
  );
}
