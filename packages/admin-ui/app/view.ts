/**
 * What the views of the admin UI share. The shell (main.ts) gives every view a `ViewContext`:
 * who is signed in, and how to move to another view; its own module so the views and the shell
 * that picks them do not import each other. And the pieces of markup several views draw the
 * same way: a `grid` table, a time, a list of passkeys.
 */
import { type Attrs, type Child, h } from '@svc/dom';
import type { SessionInfo } from './api';

export interface ViewContext {
  readonly session: SessionInfo;
  readonly navigate: (path: string) => void;
}

/**
 * A table with a header row: `table` with `attrs` (its class, `grid` for the CSS, and its id),
 * then `thead > tr` with a `th` for each header, then `tbody` with the rows.
 */
export function grid(
  attrs: Attrs,
  headers: readonly Child[],
  rows: readonly Child[],
): HTMLTableElement {
  return h(
    'table',
    attrs,
    h('thead', null, h('tr', null, ...headers.map((x) => h('th', null, x)))),
    h('tbody', null, ...rows),
  );
}

/** An ISO time as `2026-01-02 03:04:05` (UTC, to the second). */
export const when = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

export interface Passkey {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/** What the Account page and a user's page say and do differently about a list of passkeys. */
export interface PasskeyTableOptions {
  /** The words over the name, creation time and last use columns. */
  readonly headers: readonly [name: string, created: string, lastUsed: string];
  /** Shown instead of the table when there is no passkey. */
  readonly empty: string;
  /** Shown for a passkey never used. */
  readonly never: string;
  /** The remove button's class (`danger` and the name the page's tests find it by). */
  readonly removeClass: string;
  /** The question asked before `remove` runs. */
  readonly confirmText: (p: Passkey) => string;
  readonly remove: (p: Passkey) => void;
}

/**
 * `#passkeys`: a row (`data-passkey` its id) for each passkey with its name, creation time,
 * last use and a Remove button that asks first; a muted line when there is none.
 */
export function passkeyTable(passkeys: readonly Passkey[], o: PasskeyTableOptions): HTMLElement {
  if (passkeys.length === 0) return h('p', { class: 'muted', id: 'passkeys' }, o.empty);
  return grid(
    { class: 'grid', id: 'passkeys' },
    [...o.headers, ''],
    passkeys.map((p) =>
      h(
        'tr',
        { 'data-passkey': p.id },
        h('td', null, p.name),
        h('td', null, when(p.createdAt)),
        h('td', null, p.lastUsedAt ? when(p.lastUsedAt) : o.never),
        h(
          'td',
          null,
          h(
            'button',
            {
              type: 'button',
              class: o.removeClass,
              onclick: () => {
                if (confirm(o.confirmText(p))) o.remove(p);
              },
            },
            'Remove',
          ),
        ),
      ),
    ),
  );
}
