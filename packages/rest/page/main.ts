/**
 * The API reference page (`GET /api/docs`): svc's OpenAPI 3.1 document as a page, with no
 * renderer of anyone else's. It reads the document URL from the mount point
 * (`data-document-url`), fetches the document, and draws:
 * - the title, version and description; a token box (kept in `localStorage`, sent as
 *   `Authorization: Bearer` with the document and every "Try it");
 * - per tag, in the document's order, each operation as a block that opens: its summary and
 *   description, its parameters, its request body's schema, its responses, and a "Try it" form
 *   that sends the request to this server and shows the status, the time and the body;
 * - the component schemas, which `$ref`s link to.
 * When the server refuses the document (401, 403: `requireAuth`), the page says why and asks for
 * a token. Deep links: `#/<tag>/<operationId>` opens that operation. Everything is text set as
 * text (`@svc/dom`); requests go to this server only (the page's CSP: `connect-src 'self'`).
 */
import { type Child, append, h, replace } from '@svc/dom';
import { prose } from './prose';
import { type Json, exampleOf, schemaAnchor, schemaView, typeView } from './schema';

const TOKEN_KEY = 'svc-docs-token';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asObject = (v: unknown): Json => (isObject(v) ? v : {});

function keptToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function authHeaders(): Record<string, string> {
  const token = keptToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The bar at the top: the token box (`#svc-token-form`), with `message` as its label. */
function tokenForm(message: string): HTMLFormElement {
  const input = h('input', {
    id: 'svc-token',
    type: 'password',
    autocomplete: 'off',
    placeholder: 'access token',
    required: true,
  });
  const forget = keptToken()
    ? h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            localStorage.removeItem(TOKEN_KEY);
            location.reload();
          },
        },
        'Forget the token',
      )
    : null;
  return h(
    'form',
    {
      id: 'svc-token-form',
      class: 'token',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const token = input.value.trim();
        if (!token) return;
        localStorage.setItem(TOKEN_KEY, token);
        location.reload();
      },
    },
    h('label', { for: 'svc-token' }, message),
    input,
    h('button', { type: 'submit' }, 'Use this token'),
    forget,
  );
}

/** A `$ref` to `#/components/<kind>/<name>` resolved (one level), else the value itself. */
function resolve(value: unknown, doc: Json): Json {
  const o = asObject(value);
  const ref = o.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/')) return o;
  const [, , kind, name] = ref.split('/');
  return asObject(asObject(asObject(doc.components)[kind ?? ''])[name ?? '']);
}

interface Operation {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly op: Json;
  readonly parameters: readonly Json[];
}

/** Every operation of the document, with the path's parameters merged into its own. */
function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, itemValue] of Object.entries(asObject(doc.paths))) {
    const item = asObject(itemValue);
    const shared = Array.isArray(item.parameters)
      ? item.parameters.map((p) => resolve(p, doc))
      : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters.map((p) => resolve(p, doc)) : [];
      const names = new Set(own.map((p) => `${p.in}:${p.name}`));
      out.push({
        method,
        path,
        op,
        parameters: [...shared.filter((p) => !names.has(`${p.in}:${p.name}`)), ...own],
      });
    }
  }
  return out;
}

const tagOf = (o: Operation): string =>
  Array.isArray(o.op.tags) && typeof o.op.tags[0] === 'string' ? o.op.tags[0] : 'default';
const hashOf = (o: Operation): string =>
  `#/${encodeURIComponent(tagOf(o))}/${encodeURIComponent(String(o.op.operationId ?? ''))}`;

function parametersView(parameters: readonly Json[]): Child {
  if (parameters.length === 0) return null;
  return h(
    'section',
    { class: 'parameters' },
    h('h4', null, 'Parameters'),
    h(
      'table',
      null,
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'Name'),
          h('th', null, 'In'),
          h('th', null, 'Type'),
          h('th', null, 'Description'),
        ),
      ),
      h(
        'tbody',
        null,
        parameters.map((p) =>
          h(
            'tr',
            { 'data-parameter': String(p.name) },
            h(
              'td',
              null,
              h('code', null, String(p.name)),
              p.required === true ? h('span', { class: 'required', title: 'required' }, '*') : null,
            ),
            h('td', null, String(p.in)),
            h('td', null, typeView(p.schema)),
            h('td', null, prose(p.description)),
          ),
        ),
      ),
    ),
  );
}

function jsonSchemaOf(content: unknown): unknown {
  const media = asObject(content);
  const json = media['application/json'] ?? Object.values(media)[0];
  return asObject(json).schema;
}

function bodyView(op: Json, doc: Json): Child {
  if (!isObject(op.requestBody)) return null;
  const body = resolve(op.requestBody, doc);
  return h(
    'section',
    { class: 'request-body' },
    h(
      'h4',
      null,
      'Request body',
      body.required === true ? h('span', { class: 'required', title: 'required' }, '*') : null,
    ),
    prose(body.description),
    schemaView(jsonSchemaOf(body.content)),
  );
}

function responsesView(op: Json, doc: Json): Child {
  const responses = Object.entries(asObject(op.responses));
  if (responses.length === 0) return null;
  return h(
    'section',
    { class: 'responses' },
    h('h4', null, 'Responses'),
    h(
      'ul',
      null,
      responses.map(([status, value]) => {
        const response = resolve(value, doc);
        const schema = jsonSchemaOf(response.content);
        return h(
          'li',
          { class: 'response', 'data-status': status },
          h('span', { class: `status s${status[0]}` }, status),
          ' ',
          String(response.description ?? ''),
          schema === undefined ? null : schemaView(schema),
        );
      }),
    ),
  );
}

/** The "Try it" form of an operation: its inputs, "Send", and the answer shown below. */
function tryIt(o: Operation, doc: Json): HTMLElement {
  const inputs = o.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({
      p,
      input: h('input', {
        name: String(p.name),
        'data-in': String(p.in),
        required: p.in === 'path',
        autocomplete: 'off',
        placeholder: String(p.in === 'path' ? 'required' : 'optional'),
      }),
    }));
  const bodySchema = isObject(o.op.requestBody)
    ? jsonSchemaOf(resolve(o.op.requestBody, doc).content)
    : undefined;
  const body =
    bodySchema === undefined
      ? null
      : h('textarea', {
          name: 'body',
          rows: 6,
          spellcheck: 'false',
          value: JSON.stringify(
            exampleOf(bodySchema, asObject(asObject(doc.components).schemas)),
            null,
            2,
          ),
        });
  const answer = h('div', { class: 'answer', 'aria-live': 'polite' });
  const send = async (event: Event) => {
    event.preventDefault();
    const base = new URL(
      String(asObject(Array.isArray(doc.servers) ? doc.servers[0] : {}).url ?? '/'),
      location.href,
    );
    let path = o.path;
    const query = new URLSearchParams();
    for (const { p, input } of inputs) {
      const value = input.value;
      if (p.in === 'path') path = path.replace(`{${String(p.name)}}`, encodeURIComponent(value));
      else if (value !== '') query.set(String(p.name), value);
    }
    const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
    url.search = query.toString();
    if (url.origin !== location.origin) {
      // The page's CSP (`connect-src 'self'`) would refuse it anyway: say so instead.
      replace(answer, h('p', { class: 'failed' }, `Not sent: ${url.origin} is not this server.`));
      return;
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
    if (body) headers['Content-Type'] = 'application/json';
    replace(answer, h('p', { class: 'note' }, 'Sending…'));
    const started = performance.now();
    try {
      const res = await fetch(url, {
        method: o.method.toUpperCase(),
        headers,
        ...(body ? { body: body.value } : {}),
      });
      const text = await res.text();
      const ms = Math.round(performance.now() - started);
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON: shown as it came.
      }
      replace(
        answer,
        h(
          'p',
          { class: 'request' },
          h('code', null, `${o.method.toUpperCase()} ${url.pathname}${url.search}`),
        ),
        h(
          'p',
          null,
          h(
            'span',
            { class: `status s${String(res.status)[0]}`, 'data-answer-status': String(res.status) },
            String(res.status),
          ),
          ` ${res.statusText} · ${ms} ms`,
        ),
        text === '' ? null : h('pre', { class: 'answer-body' }, shown),
      );
    } catch (err) {
      replace(answer, h('p', { class: 'failed' }, `The request failed: ${String(err)}`));
    }
  };
  return h(
    'form',
    { class: 'try', onsubmit: send },
    h('h4', null, 'Try it'),
    inputs.map(({ p, input }) => h('label', null, h('span', null, String(p.name)), input)),
    body ? h('label', { class: 'body' }, h('span', null, 'Body (JSON)'), body) : null,
    h('button', { type: 'submit', class: 'send' }, 'Send'),
    answer,
  );
}

function operationView(o: Operation, doc: Json): HTMLDetailsElement {
  const details = h(
    'details',
    {
      class: `operation ${o.method}`,
      id: hashOf(o).slice(1),
      'data-operation-id': String(o.op.operationId ?? ''),
    },
    h(
      'summary',
      null,
      h('span', { class: `method ${o.method}` }, o.method.toUpperCase()),
      h('code', { class: 'path' }, o.path),
      h('span', { class: 'summary' }, String(o.op.summary ?? '')),
    ),
  );
  // Drawn when first opened: a document of many types stays quick to show.
  let drawn = false;
  details.addEventListener('toggle', () => {
    if (details.open && history.replaceState) history.replaceState(null, '', hashOf(o));
    if (!details.open || drawn) return;
    drawn = true;
    append(details, [
      h(
        'div',
        { class: 'operation-body' },
        prose(o.op.description),
        parametersView(o.parameters),
        bodyView(o.op, doc),
        responsesView(o.op, doc),
        tryIt(o, doc),
      ),
    ]);
  });
  return details;
}

function render(root: HTMLElement, doc: Json): void {
  const info = asObject(doc.info);
  const ops = operations(doc);
  const declared = Array.isArray(doc.tags) ? doc.tags.map(asObject) : [];
  const tagNames = [...declared.map((t) => String(t.name)), ...ops.map(tagOf)].filter(
    (name, i, all) => all.indexOf(name) === i,
  );
  const tagInfo = new Map(declared.map((t) => [String(t.name), t]));
  const schemas = Object.entries(asObject(asObject(doc.components).schemas));
  replace(
    root,
    h(
      'header',
      { class: 'info' },
      h(
        'h1',
        null,
        String(info.title ?? 'API'),
        h('span', { class: 'version' }, String(info.version ?? '')),
      ),
      prose(info.description),
      h(
        'p',
        { class: 'note' },
        'OpenAPI ',
        String(doc.openapi ?? ''),
        ' · ',
        h('a', { href: root.dataset.documentUrl ?? '' }, 'the document as JSON'),
      ),
    ),
    h(
      'nav',
      { class: 'tags' },
      tagNames.map((name) => h('a', { href: `#tag-${name}` }, name)),
      schemas.length > 0 ? h('a', { href: '#schemas' }, 'Schemas') : null,
    ),
    tagNames.map((name) =>
      h(
        'section',
        { class: 'tag', id: `tag-${name}`, 'data-tag': name },
        h('h2', null, name),
        prose(tagInfo.get(name)?.description),
        ops.filter((o) => tagOf(o) === name).map((o) => operationView(o, doc)),
      ),
    ),
    schemas.length === 0
      ? null
      : h(
          'section',
          { class: 'schemas', id: 'schemas' },
          h('h2', null, 'Schemas'),
          schemas.map(([name, schema]) =>
            h(
              'details',
              { class: 'component', id: schemaAnchor(name), 'data-schema': name },
              h('summary', null, name),
              schemaView(schema),
            ),
          ),
        ),
  );
  openFromHash();
}

/** Opens what the address's hash names: an operation (`#/tag/id`) or a schema. */
function openFromHash(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id === '') return;
  const target = document.getElementById(id) ?? document.getElementById(location.hash.slice(1));
  if (target instanceof HTMLDetailsElement) target.open = true;
  target?.scrollIntoView();
}

async function main(): Promise<void> {
  const root = document.getElementById('svc-docs');
  if (!root) return;
  const documentUrl = root.dataset.documentUrl ?? '/api/openapi.json';
  const bar = document.getElementById('svc-bar');
  let res: Response;
  try {
    res = await fetch(documentUrl, { headers: { Accept: 'application/json', ...authHeaders() } });
  } catch (err) {
    replace(
      root,
      h('p', { class: 'doc-error' }, `The API document could not be loaded: ${String(err)}`),
    );
    return;
  }
  if (res.status === 401 || res.status === 403) {
    const message =
      res.status === 403
        ? 'This token may not read the API document. Another access token:'
        : keptToken()
          ? 'The access token was refused (expired, or not a token of this server). Access token:'
          : 'This server shows its API document to signed-in callers only. Access token:';
    if (bar) replace(bar, tokenForm(message));
    replace(root, h('p', { class: 'doc-error' }, `The API document was refused (${res.status}).`));
    return;
  }
  if (!res.ok) {
    replace(
      root,
      h('p', { class: 'doc-error' }, `The API document could not be loaded (${res.status}).`),
    );
    return;
  }
  const doc = asObject(await res.json());
  if (bar)
    replace(
      bar,
      tokenForm(
        keptToken() ? 'Requests send the kept token.' : 'Access token for "Try it" (optional):',
      ),
    );
  render(root, doc);
  window.addEventListener('hashchange', openFromHash);
}

void main();
