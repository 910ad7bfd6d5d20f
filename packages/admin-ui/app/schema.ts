/**
 * Schema: each object type with its properties, links, constraints, indexes and access
 * policies, the types open to anonymous callers marked; then the migration history (`GET
 * /migrations`, newest first, each with the SDL it applied), each version's SDL, and the line
 * diff between two chosen versions.
 */
import { call } from './api';
import { diffCounts, lineDiff } from './diff';
import { type Child, h, replace } from '@svc/dom';
import { loadCatalogue, type Pointer } from './catalogue';
import { grid, type ViewContext } from './view';

interface Migration {
  [key: string]: unknown;
}

export async function schemaView(el: HTMLElement, _ctx: ViewContext): Promise<void> {
  const [catalogue, history] = await Promise.all([
    loadCatalogue(),
    call<Migration[] | { migrations: Migration[] }>('/migrations').then((a) => a.data),
  ]);
  const migrations = Array.isArray(history) ? history : (history.migrations ?? []);
  const pointerRows = (ps: Pointer[], kind: string) =>
    ps.map((p) =>
      h(
        'tr',
        null,
        h('td', null, kind),
        h('td', { class: 'mono' }, p.name),
        h('td', { class: 'mono' }, p.target),
        h(
          'td',
          null,
          [
            p.required ? 'required' : 'optional',
            p.cardinality === 'Many' ? 'multi' : 'single',
            p.readonly ? 'readonly' : '',
          ]
            .filter(Boolean)
            .join(', '),
        ),
        h(
          'td',
          { class: 'mono' },
          [
            p.computed ? `:= ${p.computed}` : '',
            p.default ? `default ${p.default}` : '',
            ...p.constraints,
          ]
            .filter(Boolean)
            .join('; '),
        ),
      ),
    );
  const types = catalogue.types.map((t) =>
    h(
      'section',
      { class: 'card type', 'data-type': t.name },
      h(
        'h3',
        null,
        t.name,
        t.abstract ? h('span', { class: 'badge' }, 'abstract') : null,
        t.open
          ? h(
              'span',
              {
                class: 'badge open',
                title: 'every caller, anonymous ones included, may read and write it',
              },
              'open to anonymous callers',
            )
          : null,
      ),
      t.bases.length ? h('p', { class: 'muted' }, `extends ${t.bases.join(', ')}`) : null,
      grid(
        { class: 'grid' },
        ['', 'name', 'type', '', 'details'],
        [...pointerRows(t.properties, 'property'), ...pointerRows(t.links, 'link')],
      ),
      list('Constraints', t.constraints),
      list('Indexes', t.indexes),
      t.policies.length
        ? h(
            'div',
            null,
            h('h4', null, 'Access policies'),
            h(
              'ul',
              null,
              ...t.policies.map((p) =>
                h(
                  'li',
                  { class: 'mono' },
                  `${p.name}: ${p.action} ${p.kinds.join(', ')}${p.when ? ` when (${p.when})` : ''}${p.using ? ` using (${p.using})` : ''}`,
                ),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No access policies.'),
    ),
  );
  const keys: string[] = [];
  for (const m of migrations)
    for (const k of Object.keys(m))
      if (!keys.includes(k) && k !== 'sql' && k !== 'sdl') keys.push(k);
  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      h('h2', null, 'Schema ', h('span', { class: 'muted mono' }, catalogue.version.slice(0, 12))),
      ...types,
      h('h2', null, 'Migrations'),
      migrations.length === 0
        ? h('p', { class: 'muted' }, 'No migrations yet.')
        : grid(
            { class: 'grid', id: 'migrations' },
            [...keys, 'SDL'],
            migrations.map((m) =>
              h(
                'tr',
                null,
                ...keys.map((k) => h('td', null, text(m[k]))),
                h(
                  'td',
                  null,
                  h(
                    'details',
                    { class: 'sdl' },
                    h('summary', null, `${lineCount(m.sdl)} lines`),
                    h('pre', { class: 'json' }, typeof m.sdl === 'string' ? m.sdl : ''),
                  ),
                ),
              ),
            ),
          ),
      migrations.length > 0 ? compare(migrations) : null,
    ),
  );
}

function lineCount(sdl: unknown): number {
  return typeof sdl === 'string' && sdl !== '' ? sdl.replace(/\n$/, '').split('\n').length : 0;
}

/** Two versions chosen (the one before the newest and the newest at first) and their line diff. */
function compare(migrations: Migration[]): HTMLElement {
  const label = (m: Migration, i: number) =>
    `${String(m.version ?? '').slice(0, 12)}  ${String(m.appliedAt ?? '')
      .slice(0, 19)
      .replace('T', ' ')}${i === 0 ? '  (current)' : ''}`;
  // The empty schema is a version to compare with too: what the first migration added.
  const options = () => [
    ...migrations.map((m, i) => h('option', { value: String(i) }, label(m, i))),
    h('option', { value: 'empty' }, 'empty schema'),
  ];
  const from = h('select', { id: 'diff-from', 'aria-label': 'From version' }, ...options());
  const to = h('select', { id: 'diff-to', 'aria-label': 'To version' }, ...options());
  from.value = migrations.length > 1 ? '1' : 'empty';
  to.value = '0';
  const out = h('div', { id: 'migration-diff' });
  const sdlOf = (v: string) => (v === 'empty' ? '' : String(migrations[Number(v)]?.sdl ?? ''));
  const draw = () => {
    const diff = lineDiff(sdlOf(from.value), sdlOf(to.value));
    const { added, removed } = diffCounts(diff);
    replace(
      out,
      h(
        'p',
        { class: 'muted', id: 'diff-counts' },
        added + removed === 0 ? 'No difference.' : `+${added} −${removed} lines`,
      ),
      h(
        'pre',
        { class: 'diff' },
        ...diff.map((l) =>
          h(
            'div',
            { class: l.op },
            `${l.op === 'add' ? '+' : l.op === 'remove' ? '−' : ' '} ${l.text}`,
          ),
        ),
      ),
    );
  };
  from.addEventListener('change', draw);
  to.addEventListener('change', draw);
  draw();
  return h(
    'section',
    { id: 'migration-compare' },
    h('h3', null, 'Compare two versions'),
    h('div', { class: 'filters' }, h('span', null, 'from'), from, h('span', null, 'to'), to),
    out,
  );
}

function list(title: string, items: string[]): Child {
  if (items.length === 0) return null;
  return h(
    'div',
    null,
    h('h4', null, title),
    h('ul', null, ...items.map((i) => h('li', { class: 'mono' }, i))),
  );
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  // A migration's steps: their descriptions, one a line.
  if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && 'description' in x)) {
    return v.map((x) => String((x as { description: unknown }).description)).join('\n');
  }
  if (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)) return v.slice(0, 12);
  if (typeof v === 'object') return JSON.stringify(v);
  const s = String(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
