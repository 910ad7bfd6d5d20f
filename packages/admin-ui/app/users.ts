/**
 * Users (superusers only, through `/_/api/users*`): search, view, deactivate and reactivate,
 * roles, and ending every session of a user.
 */
import { ApiError, call } from './api';
import { h, replace } from './dom';
import type { ViewContext } from './view';

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
      h('h2', null, 'Users ', h('span', { class: 'muted' }, `(${page.total})`)),
      form,
      h(
        'table',
        { class: 'grid', id: 'users' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'email'),
            h('th', null, 'username'),
            h('th', null, 'roles'),
            h('th', null, 'status'),
            h('th', null, 'created'),
          ),
        ),
        h(
          'tbody',
          null,
          ...page.users.map((u) =>
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
              h('td', null, u.createdAt.slice(0, 19).replace('T', ' ')),
            ),
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
    ),
  );
}

async function userPage(el: HTMLElement, ctx: ViewContext, id: string): Promise<void> {
  const url = `/_/api/users/${encodeURIComponent(id)}`;
  const [user, sessions] = await Promise.all([
    call<User>(url).then((a) => a.data),
    call<{ sessions: Session[] }>(`${url}/sessions`).then((a) => a.data.sessions),
  ]);
  const when = (iso: string) => iso.slice(0, 19).replace('T', ' ');
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
          : h(
              'table',
              { class: 'grid', id: 'sessions' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  h('th', null, 'started'),
                  h('th', null, 'last active'),
                  h('th', null, 'device'),
                  h('th', null, 'address'),
                  h('th', null, ''),
                ),
              ),
              h(
                'tbody',
                null,
                ...sessions.map((x) =>
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
