/**
 * Query: an EdgeQL editor (a textarea over a highlighted backdrop), variables as JSON, results
 * as a table and as JSON, an error's position marked in the text, and the history of the queries
 * run kept in this browser (localStorage, the last 50).
 */
import { ApiError, call } from './api';
import { type Child, h, replace } from '@svc/dom';
import { highlight, offsetOf } from './highlight';
import { grid, type ViewContext } from './view';

const HISTORY_KEY = 'svc-admin:query-history';
const DRAFT_KEY = 'svc-admin:query-draft';
const HISTORY_MAX = 50;

interface HistoryItem {
  query: string;
  variables: string;
  at: string;
}

function readHistory(): HistoryItem[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed)
      ? (parsed as HistoryItem[]).filter((x) => typeof x?.query === 'string')
      : [];
  } catch {
    return [];
  }
}

function remember(item: HistoryItem): void {
  const items = [
    item,
    ...readHistory().filter((x) => x.query !== item.query || x.variables !== item.variables),
  ];
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(items.slice(0, HISTORY_MAX)));
  } catch {
    // storage full or off: history is a convenience
  }
}

export async function queryView(el: HTMLElement, ctx: ViewContext): Promise<void> {
  const editor = h('textarea', {
    id: 'query-text',
    spellcheck: 'false',
    autocapitalize: 'off',
    autocomplete: 'off',
    'aria-label': 'EdgeQL query',
    rows: 10,
  });
  editor.value = localStorage.getItem(DRAFT_KEY) ?? 'select 1 + 1;';
  const backdrop = h('pre', { class: 'backdrop', 'aria-hidden': 'true', id: 'query-highlight' });
  const variables = h('textarea', {
    id: 'query-variables',
    spellcheck: 'false',
    rows: 3,
    placeholder: '{"id": "..."}',
    'aria-label': 'Variables (JSON)',
  });
  const runAs = h('input', {
    id: 'run-as',
    placeholder: 'user id or email (empty: you, no policies)',
    'aria-label': 'Run as',
  });
  const run = h('button', { type: 'button', class: 'primary', id: 'run' }, 'Run');
  const result = h('div', { class: 'result', id: 'query-result' });
  const historyList = h('ul', { class: 'history', id: 'query-history' });
  let mark: { start: number; end: number } | undefined;

  const paint = () => {
    // The trailing newline keeps the backdrop as tall as the textarea's last line.
    replace(backdrop, ...highlight(editor.value, mark), '\n');
    backdrop.scrollTop = editor.scrollTop;
    backdrop.scrollLeft = editor.scrollLeft;
  };
  editor.addEventListener('input', () => {
    mark = undefined;
    localStorage.setItem(DRAFT_KEY, editor.value);
    paint();
  });
  editor.addEventListener('scroll', () => {
    backdrop.scrollTop = editor.scrollTop;
    backdrop.scrollLeft = editor.scrollLeft;
  });
  editor.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void execute();
    }
  });
  run.addEventListener('click', () => void execute());

  const paintHistory = () => {
    replace(
      historyList,
      ...readHistory().map((item) =>
        h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: 'link mono',
              title: item.at,
              onclick: () => {
                editor.value = item.query;
                variables.value = item.variables;
                mark = undefined;
                paint();
              },
            },
            item.query.length > 90 ? `${item.query.slice(0, 90)}…` : item.query,
          ),
        ),
      ),
    );
  };

  async function execute(): Promise<void> {
    const query = editor.value;
    let vars: unknown;
    if (variables.value.trim() !== '') {
      try {
        vars = JSON.parse(variables.value);
      } catch {
        replace(result, h('p', { class: 'message' }, 'Variables must be a JSON object.'));
        return;
      }
    }
    const body: Record<string, unknown> = { query };
    if (vars !== undefined) body.variables = vars;
    const as = runAs.value.trim();
    if (as !== '') body.runAs = as;
    run.disabled = true;
    const started = performance.now();
    try {
      // "Run as" goes through the admin route (superusers only, read-only, the user's policies).
      const answer = await call<{ data: unknown[] }>(as === '' ? '/query' : '/_/api/query', {
        method: 'POST',
        body,
      });
      mark = undefined;
      paint();
      showResult(result, answer.data.data, performance.now() - started, as);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        replace(result, h('p', { class: 'message' }, String(err)));
        return;
      }
      const pos = err.envelope.extensions?.position;
      let where: Child = null;
      if (pos) {
        const start = offsetOf(query, pos.line, pos.column);
        const word =
          /^[A-Za-z0-9_:]+/.exec(query.slice(start))?.[0] ?? query.slice(start, start + 1);
        mark = { start, end: start + Math.max(1, word.length) };
        paint();
        editor.focus();
        editor.setSelectionRange(mark.start, mark.end);
        const lineText = query.split('\n')[pos.line - 1] ?? '';
        where = h(
          'div',
          { class: 'position', id: 'error-position' },
          h('div', null, `line ${pos.line}, column ${pos.column}`),
          h('pre', { class: 'caret' }, `${lineText}\n${' '.repeat(Math.max(0, pos.column - 1))}^`),
        );
      }
      replace(
        result,
        h(
          'div',
          { class: 'error-box', id: 'query-error' },
          h('strong', null, err.envelope.type ?? err.code),
          h('div', { class: 'error-text' }, err.envelope.error),
          err.envelope.hint ? h('div', { class: 'muted' }, `hint: ${err.envelope.hint}`) : null,
          where,
        ),
      );
    } finally {
      run.disabled = false;
      remember({ query, variables: variables.value, at: new Date().toISOString() });
      paintHistory();
    }
  }

  replace(
    el,
    h(
      'div',
      { class: 'split' },
      h(
        'div',
        { class: 'main' },
        h('h2', null, 'Query'),
        h('div', { class: 'editor' }, backdrop, editor),
        h(
          'div',
          { class: 'query-options' },
          h('label', { for: 'query-variables' }, 'Variables (JSON)'),
          variables,
          ctx.session.runAs
            ? [
                h('label', { for: 'run-as' }, 'Run as a user: their access policies, read-only'),
                runAs,
              ]
            : null,
        ),
        h('div', { class: 'actions' }, run, h('span', { class: 'muted' }, 'Ctrl+Enter runs')),
        result,
      ),
      h(
        'aside',
        { class: 'types' },
        h('h2', null, 'History'),
        historyList,
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            id: 'clear-history',
            title: 'the queries and variables kept in this browser',
            onclick: () => {
              localStorage.removeItem(HISTORY_KEY);
              paintHistory();
            },
          },
          'Clear history',
        ),
      ),
    ),
  );
  paint();
  paintHistory();
}

function showResult(el: HTMLElement, data: unknown[], ms: number, as: string): void {
  const tableView = h('div', { class: 'scroll', id: 'result-table' }, resultTable(data));
  const jsonView = h(
    'pre',
    { class: 'json', id: 'result-json', hidden: true },
    JSON.stringify(data, null, 2),
  );
  const tabTable = h('button', { type: 'button', class: 'tab active', id: 'tab-table' }, 'Table');
  const tabJson = h('button', { type: 'button', class: 'tab', id: 'tab-json' }, 'JSON');
  tabTable.addEventListener('click', () => {
    tableView.hidden = false;
    jsonView.hidden = true;
    tabTable.classList.add('active');
    tabJson.classList.remove('active');
  });
  tabJson.addEventListener('click', () => {
    tableView.hidden = true;
    jsonView.hidden = false;
    tabJson.classList.add('active');
    tabTable.classList.remove('active');
  });
  replace(
    el,
    h(
      'div',
      { class: 'tabs' },
      tabTable,
      tabJson,
      h(
        'span',
        { class: 'muted', id: 'result-count' },
        `${data.length} ${data.length === 1 ? 'element' : 'elements'} in ${Math.round(ms)} ms${as ? `, as ${as}` : ''}`,
      ),
    ),
    tableView,
    jsonView,
  );
}

function cell(v: unknown): Child {
  if (v === null || v === undefined) return h('span', { class: 'null' }, '—');
  if (typeof v === 'object') return h('span', { class: 'mono' }, JSON.stringify(v));
  return String(v);
}

function resultTable(data: unknown[]): Child {
  if (data.length === 0) return h('p', { class: 'muted' }, 'No elements.');
  const objects = data.every((d) => d !== null && typeof d === 'object' && !Array.isArray(d));
  if (!objects) {
    return grid(
      { class: 'grid' },
      ['value'],
      data.map((d) => h('tr', null, h('td', null, cell(d)))),
    );
  }
  const keys: string[] = [];
  for (const d of data as Record<string, unknown>[])
    for (const k of Object.keys(d)) if (!keys.includes(k)) keys.push(k);
  return grid(
    { class: 'grid' },
    keys,
    (data as Record<string, unknown>[]).map((d) =>
      h('tr', null, ...keys.map((k) => h('td', null, cell(d[k])))),
    ),
  );
}
