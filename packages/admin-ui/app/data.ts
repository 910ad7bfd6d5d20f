/**
 * Data: every object type as a table through the REST routes (`/api/<type>`: pagination, sort,
 * the REST filters), link cells that open their target, and create / edit / delete forms whose
 * validation errors are shown on the field. Every value is rendered as text.
 */
import { ApiError, call } from './api';
import {
  baseScalar,
  type Catalogue,
  enumValues,
  findType,
  loadCatalogue,
  type ObjectType,
  type Pointer,
  routeName,
  visible,
  writable,
} from './catalogue';
import { type Child, h, replace } from '@svc/dom';
import { grid, type ViewContext } from './view';

const PAGE = 25;
const BASE = '/_/data';

export async function dataView(el: HTMLElement, ctx: ViewContext, parts: string[]): Promise<void> {
  const catalogue = await loadCatalogue();
  const types = catalogue.types.filter((t) => !t.abstract);
  const [route, id] = parts;
  const type = route ? findType(catalogue, route) : types[0];
  const side = h(
    'aside',
    { class: 'types' },
    h('h2', null, 'Types'),
    types.length === 0 ? h('p', { class: 'muted' }, 'The schema has no object types yet.') : null,
    h(
      'ul',
      null,
      ...types.map((t) =>
        h(
          'li',
          null,
          h(
            'a',
            {
              href: `${BASE}/${encodeURIComponent(routeName(t.name))}`,
              'data-nav': true,
              class: t === type ? 'active' : '',
            },
            routeName(t.name),
          ),
          t.open
            ? h('span', { class: 'badge open', title: 'open to anonymous callers' }, 'open')
            : null,
        ),
      ),
    ),
  );
  const main = h('div', { class: 'main' });
  replace(el, h('div', { class: 'split' }, side, main));
  if (!type) {
    if (route) replace(main, h('p', { class: 'message' }, `No object type ${route}.`));
    return;
  }
  if (id === 'new') return editForm(main, ctx, catalogue, type, null);
  if (id) {
    try {
      const row = (
        await call<Record<string, unknown>>(
          `/api/${encodeURIComponent(routeName(type.name))}/${encodeURIComponent(id)}`,
        )
      ).data;
      return editForm(main, ctx, catalogue, type, row);
    } catch (err) {
      replace(main, h('p', { class: 'message' }, err instanceof Error ? err.message : String(err)));
      return;
    }
  }
  return table(main, ctx, catalogue, type);
}

function columnsOf(type: ObjectType): Pointer[] {
  const props = visible(type.properties).filter((p) => p.name !== '__type__');
  const idFirst = [
    ...props.filter((p) => p.name === 'id'),
    ...props.filter((p) => p.name !== 'id'),
  ];
  return [...idFirst, ...visible(type.links).filter((l) => l.name !== '__type__')];
}

async function table(
  el: HTMLElement,
  ctx: ViewContext,
  catalogue: Catalogue,
  type: ObjectType,
): Promise<void> {
  const route = routeName(type.name);
  const params = new URLSearchParams(location.search);
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const orderBy = params.get('order_by') ?? '';
  const filters = [...params.entries()].filter(([k]) => k !== 'offset' && k !== 'order_by');
  const query = new URLSearchParams(filters);
  if (orderBy) query.set('order_by', orderBy);
  query.set('limit', String(PAGE + 1));
  query.set('offset', String(offset));
  const columns = columnsOf(type);
  const links = new Set(type.links.map((l) => l.name));

  const go = (changes: Record<string, string | null>, keepFilters = true) => {
    const next = new URLSearchParams(keepFilters ? location.search : '');
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    const qs = next.toString();
    ctx.navigate(`${BASE}/${encodeURIComponent(route)}${qs ? `?${qs}` : ''}`);
  };

  // Filters: the REST ones (=, __in, __contains) on properties.
  const props = columns.filter((c) => !links.has(c.name));
  const field = h(
    'select',
    { id: 'filter-field', 'aria-label': 'Filter field' },
    // The id last: filtering by id is what the row links are for.
    ...[...props.filter((p) => p.name !== 'id'), ...props.filter((p) => p.name === 'id')].map((p) =>
      h('option', { value: p.name }, p.name),
    ),
  );
  const op = h(
    'select',
    { id: 'filter-op', 'aria-label': 'Filter operator' },
    h('option', { value: '' }, '='),
    h('option', { value: '__contains' }, 'contains'),
    h('option', { value: '__in' }, 'in (a,b,c)'),
  );
  const value = h('input', {
    id: 'filter-value',
    placeholder: 'value',
    'aria-label': 'Filter value',
  });
  const filterForm = h(
    'form',
    { class: 'filters', id: 'filter-form' },
    field,
    op,
    value,
    h('button', { type: 'submit' }, 'Add filter'),
    ...filters.map(([k, v]) =>
      h(
        'span',
        { class: 'chip' },
        `${k} = ${v} `,
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            title: 'remove',
            onclick: () => go({ [k]: null, offset: null }),
          },
          '×',
        ),
      ),
    ),
  );
  filterForm.addEventListener('submit', (event) => {
    event.preventDefault();
    go({ [`${field.value}${op.value}`]: value.value, offset: null });
  });

  const header = h(
    'div',
    { class: 'toolbar' },
    h(
      'h2',
      null,
      route,
      type.open
        ? h('span', { class: 'badge open', title: 'open to anonymous callers' }, 'open')
        : null,
    ),
    h('span', { class: 'spacer' }),
    h(
      'a',
      {
        href: `${BASE}/${encodeURIComponent(route)}/new`,
        'data-nav': true,
        class: 'button primary',
        id: 'new-row',
      },
      'New',
    ),
  );
  const status = h('div', { class: 'message', role: 'alert' });
  replace(el, header, filterForm, status);

  let rows: Record<string, unknown>[];
  try {
    rows = (await call<Record<string, unknown>[]>(`/api/${encodeURIComponent(route)}?${query}`))
      .data;
  } catch (err) {
    status.textContent = err instanceof Error ? err.message : String(err);
    return;
  }
  const more = rows.length > PAGE;
  rows = rows.slice(0, PAGE);

  const sortKey = orderBy.replace(/^-/, '');
  const desc = orderBy.startsWith('-');
  const headers = columns.map((c) => {
    const sortable = !links.has(c.name) && c.cardinality === 'One';
    const mark = sortKey === c.name ? (desc ? ' ▼' : ' ▲') : '';
    return sortable
      ? h(
          'button',
          {
            type: 'button',
            class: 'link sort',
            'data-column': c.name,
            onclick: () =>
              go({
                order_by: sortKey === c.name && !desc ? `-${c.name}` : c.name,
                offset: null,
              }),
          },
          c.name + mark,
        )
      : c.name;
  });
  const body = rows.map((row) =>
    h(
      'tr',
      { 'data-id': String(row.id ?? '') },
      ...columns.map((c) => {
        const v = row[c.name];
        if (c.name === 'id' && typeof v === 'string') {
          return h(
            'td',
            null,
            h(
              'a',
              {
                href: `${BASE}/${encodeURIComponent(route)}/${encodeURIComponent(v)}`,
                'data-nav': true,
                class: 'mono',
                title: v,
              },
              shortId(v),
            ),
          );
        }
        if (links.has(c.name)) {
          const target = findType(catalogue, c.target);
          return h('td', null, linkCell(v, target ? routeName(target.name) : routeName(c.target)));
        }
        return h('td', null, valueCell(v));
      }),
    ),
  );
  const rowsTable = grid({ class: 'grid', id: 'rows' }, headers, body);
  const pager = h(
    'div',
    { class: 'pager' },
    h(
      'button',
      {
        type: 'button',
        id: 'prev',
        disabled: offset === 0,
        onclick: () => go({ offset: String(Math.max(0, offset - PAGE)) }),
      },
      '‹ Previous',
    ),
    h(
      'span',
      { id: 'page-info' },
      rows.length === 0 ? 'no rows' : `rows ${offset + 1}–${offset + rows.length}`,
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'next',
        disabled: !more,
        onclick: () => go({ offset: String(offset + PAGE) }),
      },
      'Next ›',
    ),
  );
  el.append(h('div', { class: 'scroll' }, rowsTable), pager);
}

/** An id short enough for a cell and still telling rows apart (ids made close together share their start). */
function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** A value as text: null as a dash, objects and arrays as JSON. */
function valueCell(v: unknown): Child {
  if (v === null || v === undefined) return h('span', { class: 'null' }, '—');
  if (typeof v === 'object') return h('span', { class: 'mono' }, JSON.stringify(v));
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = String(v);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** A link's ids (or expanded objects) as links to the target's row. */
function linkCell(v: unknown, target: string): Child {
  if (v === null || v === undefined) return h('span', { class: 'null' }, '—');
  const items = Array.isArray(v) ? v : [v];
  return items.map((item, i) => {
    const id =
      typeof item === 'string'
        ? item
        : item && typeof item === 'object'
          ? (item as { id?: unknown }).id
          : undefined;
    if (typeof id !== 'string') return valueCell(item);
    return [
      i > 0 ? ', ' : '',
      h(
        'a',
        {
          href: `${BASE}/${encodeURIComponent(target)}/${encodeURIComponent(id)}`,
          'data-nav': true,
          class: 'mono target',
          title: id,
        },
        `${target} ${shortId(id)}`,
      ),
    ];
  });
}

interface FieldInput {
  pointer: Pointer;
  kind: string;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  error: HTMLElement;
  initial: string;
}

function editForm(
  el: HTMLElement,
  ctx: ViewContext,
  catalogue: Catalogue,
  type: ObjectType,
  row: Record<string, unknown> | null,
): void {
  const route = routeName(type.name);
  const listUrl = `${BASE}/${encodeURIComponent(route)}`;
  const fields: FieldInput[] = [];
  const linkNames = new Set(type.links.map((l) => l.name));
  for (const p of writable([...type.properties, ...type.links])) {
    if (row && p.readonly) continue;
    const isLink = linkNames.has(p.name);
    const kind = isLink
      ? 'link'
      : p.cardinality === 'Many'
        ? 'json'
        : kindOf(baseScalar(catalogue, p.target));
    const current = row ? row[p.name] : undefined;
    const initial = toText(kind, current, isLink);
    const id = `field-${p.name}`;
    let input: FieldInput['input'];
    if (kind === 'bool') {
      input = h(
        'select',
        { id, name: p.name },
        h('option', { value: '' }, '—'),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
      input.value = initial;
    } else if (kind === 'enum') {
      const values = enumValues(catalogue, p.target) ?? [];
      input = h(
        'select',
        { id, name: p.name },
        h('option', { value: '' }, '—'),
        ...values.map((v) => h('option', { value: v }, v)),
      );
      input.value = initial;
    } else if (kind === 'json' || (kind === 'str' && initial.length > 80)) {
      input = h('textarea', { id, name: p.name, rows: 3 });
      input.value = initial;
    } else {
      input = h('input', {
        id,
        name: p.name,
        value: initial,
        inputmode:
          kind === 'number' || kind === 'decimal'
            ? 'decimal'
            : kind === 'int64' || kind === 'bigint'
              ? 'numeric'
              : undefined,
      });
    }
    fields.push({
      pointer: p,
      kind,
      input,
      error: h('div', { class: 'field-error', id: `error-${p.name}` }),
      initial,
    });
  }
  const status = h('p', { class: 'message', role: 'alert', id: 'form-status' });
  const save = h(
    'button',
    { type: 'submit', class: 'primary', id: 'save' },
    row ? 'Save' : 'Create',
  );
  const form = h(
    'form',
    { class: 'card record', id: 'record-form', novalidate: true },
    h(
      'h2',
      null,
      row ? `${route} ` : `New ${route}`,
      row ? h('span', { class: 'mono' }, String(row.id)) : null,
    ),
    ...fields.map((f) =>
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: f.input.id },
          f.pointer.name,
          f.pointer.required ? h('span', { class: 'req' }, ' *') : null,
          h(
            'span',
            { class: 'muted' },
            ` ${f.pointer.target}${f.pointer.cardinality === 'Many' ? ' (JSON array)' : ''}${f.kind === 'link' ? ' (id)' : ''}`,
          ),
        ),
        f.input,
        f.kind === 'link' ? linkPicker(catalogue, f) : null,
        f.error,
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      save,
      h('a', { href: listUrl, 'data-nav': true, class: 'button' }, 'Cancel'),
      row ? h('span', { class: 'spacer' }) : null,
      row
        ? h(
            'button',
            { type: 'button', class: 'danger', id: 'delete', onclick: () => void remove() },
            'Delete',
          )
        : null,
    ),
    status,
  );
  if (row) {
    // The stored row as the server answered it, read-only.
    form.append(
      h(
        'details',
        null,
        h('summary', null, 'JSON'),
        h('pre', { class: 'json' }, JSON.stringify(row, null, 2)),
      ),
    );
  }

  async function remove(): Promise<void> {
    if (!row || !confirm(`Delete ${route} ${String(row.id)}?`)) return;
    try {
      await call(`/api/${encodeURIComponent(route)}/${encodeURIComponent(String(row.id))}`, {
        method: 'DELETE',
      });
      ctx.navigate(listUrl);
    } catch (err) {
      status.textContent = err instanceof Error ? err.message : String(err);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  async function submit(): Promise<void> {
    status.textContent = '';
    for (const f of fields) {
      f.error.textContent = '';
      f.input.classList.remove('invalid');
    }
    const body: Record<string, unknown> = {};
    for (const f of fields) {
      const text = f.input.value;
      if (row && text === f.initial) continue;
      if (!row && text.trim() === '') continue;
      try {
        body[f.pointer.name] = fromText(f.kind, text);
      } catch (err) {
        showFieldError(f, err instanceof Error ? err.message : String(err));
        return;
      }
    }
    if (row && Object.keys(body).length === 0) {
      status.textContent = 'Nothing changed.';
      return;
    }
    save.disabled = true;
    try {
      const url = row
        ? `/api/${encodeURIComponent(route)}/${encodeURIComponent(String(row.id))}`
        : `/api/${encodeURIComponent(route)}`;
      const answer = await call<Record<string, unknown> | null>(url, {
        method: row ? 'PATCH' : 'POST',
        body,
      });
      const saved = answer.data;
      ctx.navigate(
        saved && typeof saved.id === 'string'
          ? `${listUrl}/${encodeURIComponent(saved.id)}`
          : listUrl,
      );
    } catch (err) {
      if (err instanceof ApiError) {
        const f = fieldOf(err, fields);
        if (f) showFieldError(f, err.envelope.error);
        else status.textContent = err.envelope.error;
      } else {
        status.textContent = String(err);
      }
    } finally {
      save.disabled = false;
    }
  }

  replace(el, form);
  fields[0]?.input.focus();
}

const PICKS = 10;

/**
 * A link field's picker: search the target type (by its first single `str` property, the REST
 * `contains` filter), then choose a row: its id goes in the field (a multi link's JSON array
 * gains it). The field stays editable as text.
 */
function linkPicker(catalogue: Catalogue, f: FieldInput): HTMLElement {
  const target = findType(catalogue, f.pointer.target);
  const wrap = h('div', { class: 'picker', id: `picker-${f.pointer.name}` });
  if (!target || target.abstract) return wrap;
  const route = routeName(target.name);
  const label = visible(target.properties).find(
    (p) =>
      p.cardinality === 'One' && p.name !== 'id' && baseScalar(catalogue, p.target) === 'std::str',
  );
  const search = h('input', {
    class: 'picker-search',
    placeholder: label ? `${routeName(target.name)} ${label.name} contains…` : 'id',
    'aria-label': `Search ${route}`,
  });
  const results = h('ul', { class: 'picker-results' });
  const pick = (id: string) => {
    if (f.pointer.cardinality === 'Many') {
      let ids: unknown[] = [];
      try {
        const parsed = JSON.parse(f.input.value.trim() || '[]') as unknown;
        if (Array.isArray(parsed)) ids = parsed;
      } catch {
        ids = [];
      }
      if (!ids.includes(id)) ids.push(id);
      f.input.value = JSON.stringify(ids);
    } else {
      f.input.value = id;
    }
    replace(results);
    panel.hidden = true;
    f.input.focus();
  };
  const find = async () => {
    const qs = new URLSearchParams({ limit: String(PICKS) });
    const q = search.value.trim();
    if (label) {
      qs.set('order_by', label.name);
      if (q) qs.set(`${label.name}__contains`, q);
    }
    try {
      const rows = (
        await call<Record<string, unknown>[]>(`/api/${encodeURIComponent(route)}?${qs}`)
      ).data;
      replace(
        results,
        rows.length === 0 ? h('li', { class: 'muted' }, 'No match.') : null,
        ...rows.map((r) =>
          h(
            'li',
            null,
            h(
              'button',
              { type: 'button', class: 'link pick', onclick: () => pick(String(r.id)) },
              label ? String(r[label.name] ?? '—') : String(r.id),
              ' ',
              h('span', { class: 'muted mono' }, shortId(String(r.id))),
            ),
          ),
        ),
      );
    } catch (err) {
      replace(
        results,
        h('li', { class: 'message' }, err instanceof Error ? err.message : String(err)),
      );
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void find(), 200);
  });
  search.addEventListener('keydown', (event) => {
    // Enter searches now rather than submitting the record's form.
    if (event.key === 'Enter') {
      event.preventDefault();
      clearTimeout(timer);
      void find();
    }
  });
  const panel = h('div', { class: 'picker-panel', hidden: true }, search, results);
  const open = h(
    'button',
    {
      type: 'button',
      class: 'picker-open',
      onclick: () => {
        panel.hidden = !panel.hidden;
        if (!panel.hidden) {
          search.focus();
          void find();
        }
      },
    },
    `Choose ${route}…`,
  );
  wrap.append(open, panel);
  return wrap;
}

function showFieldError(f: FieldInput, message: string): void {
  f.error.textContent = message;
  f.input.classList.add('invalid');
  f.input.setAttribute('aria-invalid', 'true');
  f.input.focus();
}

/** The field an error names (REST names it in quotes; the compiler in quotes or after "property"). */
function fieldOf(err: ApiError, fields: FieldInput[]): FieldInput | undefined {
  const text = err.envelope.error;
  const quoted = [...text.matchAll(/["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]/g)].map((m) => m[1]);
  for (const name of quoted) {
    const f = fields.find((x) => x.pointer.name === name);
    if (f) return f;
  }
  // "default::Book.title" style
  const dotted = text.match(/::[A-Za-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_]*)/);
  return dotted ? fields.find((x) => x.pointer.name === dotted[1]) : undefined;
}

function kindOf(scalar: string): string {
  if (scalar === 'enum') return 'enum';
  // Edited as text (api.ts's parseJson keeps their digits as strings): no digit is lost.
  if (scalar === 'std::int64') return 'int64';
  if (scalar === 'std::bigint') return 'bigint';
  if (scalar === 'std::decimal') return 'decimal';
  if (/^std::(int16|int32|float32|float64)$/.test(scalar)) return 'number';
  if (scalar === 'std::bool') return 'bool';
  if (scalar === 'std::json') return 'json';
  return 'str';
}

function toText(kind: string, v: unknown, isLink: boolean): string {
  if (v === null || v === undefined) return '';
  if (isLink) {
    const ids = (Array.isArray(v) ? v : [v]).map((x) =>
      x && typeof x === 'object' ? (x as { id?: unknown }).id : x,
    );
    return Array.isArray(v) ? JSON.stringify(ids) : String(ids[0] ?? '');
  }
  if (kind === 'json' || typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function fromText(kind: string, text: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  switch (kind) {
    case 'number': {
      const n = Number(t);
      if (!Number.isFinite(n)) throw new Error(`"${t}" is not a number`);
      return n;
    }
    case 'int64':
    case 'bigint': {
      if (!/^-?\d+$/.test(t)) throw new Error(`"${t}" is not a whole number`);
      // Within ±(2^53 − 1) an int64 travels as a JSON number; beyond, and a bigint always, as
      // its digits (docs/http.md: svc takes either), so none is lost on the way.
      const n = Number(t);
      return kind === 'int64' && Number.isSafeInteger(n) ? n : t;
    }
    case 'decimal':
      if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t))
        throw new Error(`"${t}" is not a decimal number`);
      return t;
    case 'bool':
      return t === 'true';
    case 'json':
      try {
        return JSON.parse(t);
      } catch {
        throw new Error('not valid JSON');
      }
    case 'link':
      return t.startsWith('[') ? JSON.parse(t) : t;
    default:
      return text;
  }
}
