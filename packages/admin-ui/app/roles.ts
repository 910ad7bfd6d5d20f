/**
 * The Users section's other tabs (superusers only): roles with how many users hold each, created
 * and deleted (`/_/api/roles`), and the settings in force without their secrets
 * (`/_/api/settings`: a secret shows as "(set)", never its value).
 */
import { ApiError, call } from './api';
import { h, replace } from '@svc/dom';
import { grid, type ViewContext } from './view';

interface RoleRow {
  name: string;
  description: string | null;
  members: number;
}

const TABS = [
  ['users', 'Users', '/_/users'],
  ['roles', 'Roles', '/_/users/roles'],
  ['settings', 'Settings', '/_/users/settings'],
] as const;

export function authTabs(current: (typeof TABS)[number][0]): HTMLElement {
  return h(
    'nav',
    { class: 'tabs', 'aria-label': 'Auth' },
    ...TABS.map(([key, label, href]) =>
      h(
        'a',
        {
          href,
          'data-nav': true,
          class: key === current ? 'button tab active' : 'button tab',
          id: `tab-${key}`,
        },
        label,
      ),
    ),
  );
}

export async function rolesView(el: HTMLElement, ctx: ViewContext): Promise<void> {
  const { roles } = (await call<{ roles: RoleRow[] }>('/_/api/roles')).data;
  const status = h('p', { class: 'message', role: 'alert', id: 'roles-status' });
  const name = h('input', { id: 'new-role-name', placeholder: 'name', 'aria-label': 'Role name' });
  const description = h('input', {
    id: 'new-role-description',
    placeholder: 'description (optional)',
    'aria-label': 'Role description',
  });
  const act = (fn: () => Promise<unknown>) => {
    status.textContent = '';
    fn().then(
      () => rolesView(el, ctx),
      (err: unknown) => {
        status.textContent = err instanceof ApiError ? err.envelope.error : String(err);
      },
    );
  };
  const form = h(
    'form',
    { class: 'filters', id: 'new-role-form' },
    name,
    description,
    h('button', { type: 'submit', class: 'primary' }, 'Create role'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(() =>
      call('/_/api/roles', {
        method: 'POST',
        body: { name: name.value.trim(), description: description.value.trim() },
      }),
    );
  });
  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      authTabs('roles'),
      h('h2', null, 'Roles ', h('span', { class: 'muted' }, `(${roles.length})`)),
      grid(
        { class: 'grid', id: 'roles-table' },
        ['role', 'description', 'members', ''],
        roles.map((r) =>
          h(
            'tr',
            { 'data-role': r.name },
            h('td', { class: 'mono' }, r.name),
            h('td', null, r.description ?? ''),
            h('td', { class: 'members' }, String(r.members)),
            h(
              'td',
              null,
              r.name === 'superuser'
                ? null
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'danger delete-role',
                      onclick: () => {
                        const who = r.members === 1 ? '1 user' : `${r.members} users`;
                        if (!confirm(`Delete the role ${r.name}? ${who} hold it.`)) return;
                        act(() =>
                          call(`/_/api/roles/${encodeURIComponent(r.name)}`, {
                            method: 'DELETE',
                          }),
                        );
                      },
                    },
                    'Delete',
                  ),
            ),
          ),
        ),
      ),
      h(
        'p',
        { class: 'muted' },
        'A role is in a user’s tokens from their next sign-in. Assign roles on a user’s page.',
      ),
      form,
      status,
    ),
  );
}

interface Settings {
  server: Record<string, unknown>;
  database: Record<string, unknown>;
  auth: Record<string, unknown> | null;
}

export async function settingsView(el: HTMLElement): Promise<void> {
  const settings = (await call<Settings>('/_/api/settings')).data;
  const table = (title: string, id: string, values: Record<string, unknown> | null) =>
    h(
      'section',
      { class: 'card', id },
      h('h3', null, title),
      values === null
        ? h('p', { class: 'muted' }, 'Built-in auth is off.')
        : h(
            'table',
            { class: 'grid inner' },
            h(
              'tbody',
              null,
              ...flatten(values).map(([key, value]) =>
                h(
                  'tr',
                  { 'data-setting': key },
                  h('th', { class: 'mono' }, key),
                  h('td', { class: value === '(set)' ? 'mono muted' : 'mono' }, value),
                ),
              ),
            ),
          ),
    );
  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      authTabs('settings'),
      h('h2', null, 'Settings in force'),
      h(
        'p',
        { class: 'muted' },
        'Secrets (keys, tokens, passwords, the database URL) show only as "(set)"; unset settings as —.',
      ),
      table('Server', 'settings-server', settings.server),
      table('Database', 'settings-database', settings.database),
      table('Auth', 'settings-auth', settings.auth),
    ),
  );
}

/** `{a: {b: 1}, c: [1, 2]}` → `[['a.b', '1'], ['c', '1, 2']]`. */
function flatten(value: Record<string, unknown>, prefix = ''): [string, string][] {
  const rows: [string, string][] = [];
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v === null || v === undefined) rows.push([path, '—']);
    else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))
      rows.push([path, v.length ? v.join(', ') : '[]']);
    else if (typeof v === 'object') {
      const inner = flatten(v as Record<string, unknown>, path);
      rows.push(...(inner.length ? inner : [[path, '{}'] as [string, string]]));
    } else rows.push([path, String(v)]);
  }
  return rows;
}
