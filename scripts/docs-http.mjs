#!/usr/bin/env node
// Keeps docs/http.md true to the server. Starts the reference server (scripts/reference-server.mjs:
// built packages, embedded PGlite in memory, the fixture schema of @svc/rest's document tests,
// requireAuth on) with every optional auth feature configured, then:
//
// - writes the generated sections of docs/http.md, each between `<!-- NAME:begin -->` and
//   `<!-- NAME:end -->`: `routes` (every /auth operation of the served OpenAPI document),
//   `rest-routes` (the REST operations, one row per kind of route), `error-codes` (the one
//   registry of error codes with their statuses), `query-errors` (the query-language error
//   classes) and `config` (the server settings);
// - with --check, writes nothing and fails, listing each problem, when a generated section is not
//   what it would write, when a route of the server (its Express route table, or an operation of
//   the OpenAPI document) is named nowhere in docs/http.md, when docs/http.md names a route
//   (`| GET | \`/path\` |` in a table, or `GET /path` in backticks) the server does not have, or
//   when a registered error code is missing.
//
// Usage (after the build): node scripts/docs-http.mjs [--check]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceSection as replace } from './generated-section.mjs';
import { serverRequire, startReferenceServer } from './reference-server.mjs';

const root = new URL('..', import.meta.url).pathname;
const DOC = join(root, 'docs/http.md');
const check = process.argv.includes('--check');
const { SERVER_FIELDS } = serverRequire('./dist/index.js');
// The server's own copies, so the registry holds every table the server loaded.
const core = serverRequire('@svc/core');
const { github } = serverRequire('@svc/auth');

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The served document and the server's route table (method + path, and mounted prefixes). */
async function readServer() {
  const { server, openapi } = await startReferenceServer({
    cookie: true,
    webauthn: { origin: 'https://app.example', rpId: 'app.example', rpName: 'Example' },
    oauth: {
      providers: { github: github({ clientId: 'docs', clientSecret: 'docs' }) },
      redirectUris: ['https://app.example/callback'],
    },
  });
  try {
    const document = await openapi();
    const routes = [];
    const mounts = new Set();
    for (const layer of server.app.router.stack) {
      if (layer.route) {
        for (const m of Object.keys(layer.route.methods)) {
          if (m !== '_all') routes.push({ method: m.toUpperCase(), path: layer.route.path });
        }
      } else if (typeof layer.rawPath === 'string' && layer.rawPath !== '/') {
        mounts.add(layer.rawPath);
      }
    }
    return { document, routes, mounts: [...mounts] };
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------- the document, read

function resolve(doc, node) {
  let n = node;
  while (n && typeof n === 'object' && typeof n.$ref === 'string') {
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce((o, k) => o?.[k], doc);
  }
  return n;
}

/** Properties and required names of an object schema (allOf merged, $refs followed). */
function objectFields(doc, schemaNode) {
  const s = resolve(doc, schemaNode);
  if (!s || typeof s !== 'object') return { props: [], required: new Set() };
  const props = [];
  const required = new Set(s.required ?? []);
  for (const part of s.allOf ?? []) {
    const inner = objectFields(doc, part);
    for (const p of inner.props) if (!props.includes(p)) props.push(p);
    for (const r of inner.required) required.add(r);
  }
  // Alternatives (`anyOf`, `oneOf`): every field of any; required only when all require it.
  const alternatives = (s.anyOf ?? s.oneOf ?? []).map((part) => objectFields(doc, part));
  for (const alt of alternatives) for (const p of alt.props) if (!props.includes(p)) props.push(p);
  for (const p of alternatives[0]?.required ?? []) {
    if (alternatives.every((alt) => alt.required.has(p))) required.add(p);
  }
  for (const p of Object.keys(s.properties ?? {})) if (!props.includes(p)) props.push(p);
  return { props, required };
}

function schemaName(doc, node) {
  if (!node) return '';
  if (node.$ref) return node.$ref.split('/').pop();
  if (node.anyOf || node.oneOf) {
    return (node.anyOf ?? node.oneOf)
      .map((n) => schemaName(doc, n))
      .filter(Boolean)
      .join(' or ');
  }
  if (node.type === 'array') return `array of ${schemaName(doc, node.items) || 'values'}`;
  if (node.type === 'null') return 'null';
  const { props } = objectFields(doc, node);
  return props.length ? `{${props.join(', ')}}` : (node.type ?? '');
}

function bodyOf(doc, op) {
  const body = resolve(doc, op.requestBody);
  const schemaNode = body?.content?.['application/json']?.schema;
  if (!schemaNode) return '-';
  const { props, required } = objectFields(doc, schemaNode);
  if (!props.length) return '{}';
  return props.map((p) => `\`${p}${required.has(p) ? '' : '?'}\``).join(', ');
}

function queryOf(op) {
  const names = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  return names.length ? `query: ${names.map((n) => `\`${n}\``).join(', ')}` : '';
}

function successOf(doc, op) {
  const out = [];
  for (const [status, r] of Object.entries(op.responses)) {
    if (!/^[23]/.test(status)) continue;
    const resp = resolve(doc, r);
    const schemaNode = resp?.content?.['application/json']?.schema;
    const what = schemaNode ? schemaName(doc, schemaNode) : '';
    out.push(what ? `${status} ${what}` : status);
  }
  return out.join('; ');
}

/** Error statuses with the codes each documents (500 INTERNAL_ERROR, on every route, left out). */
function errorsOf(doc, op) {
  const out = [];
  for (const [status, r] of Object.entries(op.responses)) {
    if (!/^[45]/.test(status) || status === '500') continue;
    const resp = resolve(doc, r);
    const schemaNode = resolve(doc, resp?.content?.['application/json']?.schema);
    // The codes the answer declares, else those its description names.
    const codes =
      schemaNode?.properties?.code?.enum ??
      [...String(resp?.description ?? '').matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)]
        .map((m) => m[0])
        .filter((c) => knownCodes.has(c));
    out.push(codes.length ? `${status} ${codes.join(', ')}` : status);
  }
  return out.join('; ');
}

function callerOf(doc, op) {
  const security = op.security ?? doc.security ?? [];
  return security.length === 0 ? 'public' : 'token';
}

const knownCodes = new Set(core.registeredErrorCodes().map((e) => e.code));

const cell = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');
const row = (cells) => `| ${cells.map(cell).join(' | ')} |`;

function operations(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      if (!METHODS.includes(m.toUpperCase())) continue;
      ops.push({ method: m.toUpperCase(), path, op });
    }
  }
  return ops;
}

/** `/api/Post/{id}/tags` → `/api/{type}/{id}/{link}`. */
function restPattern(path) {
  const parts = path.split('/');
  parts[2] = '{type}';
  if (parts.length === 5) parts[4] = '{link}';
  return parts.join('/');
}

// ---------------------------------------------------------------- the sections

function authSection(doc) {
  const byTag = new Map();
  for (const o of operations(doc).filter((o) => o.path.startsWith('/auth/'))) {
    const tag = o.op.tags?.[0] ?? 'Auth';
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag).push(o);
  }
  const lines = [];
  for (const [tag, ops] of byTag) {
    const description = doc.tags?.find((t) => t.name === tag)?.description;
    lines.push(`#### ${tag}`, '');
    if (description) lines.push(description, '');
    lines.push(
      row(['Method', 'Path', 'Caller', 'What it does', 'Body', 'Success', 'Errors']),
      row(['---', '---', '---', '---', '---', '---', '---']),
    );
    for (const { method, path, op } of ops) {
      const input = [bodyOf(doc, op), queryOf(op)].filter((s) => s && s !== '-').join('; ');
      lines.push(
        row([
          method,
          `\`${path}\``,
          callerOf(doc, op),
          op.summary ?? '',
          input || '-',
          successOf(doc, op),
          errorsOf(doc, op),
        ]),
      );
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

const REST_KIND = {
  list: ['List objects: filters, `order_by`, `limit`, `offset`', '-'],
  create: ['Insert one object', 'the writable fields of the type'],
  get: ['One object by id', '-'],
  update: ['Update some fields of one object', 'some writable fields (not none)'],
  delete: ['Delete one object (idempotent)', '-'],
  linked: ['The objects a link points to: `limit`, `offset`', '-'],
};

function restSection(doc) {
  const groups = new Map();
  for (const o of operations(doc).filter((o) => o.path.startsWith('/api/'))) {
    const kind = String(o.op.operationId ?? '')
      .split('.')
      .pop();
    const key = `${o.method} ${restPattern(o.path)}`;
    const g = groups.get(key) ?? { method: o.method, path: restPattern(o.path), kind, ops: [] };
    g.ops.push(o.op);
    groups.set(key, g);
  }
  const lines = [
    row(['Method', 'Path', 'What it does', 'Body', 'Success', 'Errors']),
    row(['---', '---', '---', '---', '---', '---']),
  ];
  for (const g of groups.values()) {
    const [what, body] = REST_KIND[g.kind] ?? [g.ops[0].summary ?? '', '-'];
    const statuses = new Map();
    for (const op of g.ops) {
      for (const part of errorsOf(doc, op).split('; ').filter(Boolean)) {
        const [status, codes = ''] = part.split(/ (.*)/);
        const set = statuses.get(status) ?? new Set();
        for (const c of codes.split(', ').filter(Boolean)) set.add(c);
        statuses.set(status, set);
      }
    }
    // The type's own schema is `T`; a link's target, `L`'s target.
    const success = successOf(doc, g.ops[0]).replace(/\b[A-Z][\w:-]*/g, () =>
      g.kind === 'linked' ? 'the target type' : 'T',
    );
    const errors = [...statuses]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, codes]) => (codes.size ? `${s} ${[...codes].join(', ')}` : s))
      .join('; ');
    lines.push(row([g.method, `\`${g.path}\``, what, body, success, errors]));
  }
  return lines.join('\n');
}

function errorCodeSection() {
  const lines = [row(['Code', 'HTTP', 'Declared by']), row(['---', '---', '---'])];
  for (const e of core.registeredErrorCodes()) {
    lines.push(row([`\`${e.code}\``, e.status, e.owner]));
  }
  return lines.join('\n');
}

function queryErrorSection() {
  // Every class of the one table, exported or not (AccessPolicyError is used inside core only).
  let module = core;
  try {
    module = serverRequire(join(root, 'packages/core/dist/errors/query-errors.js'));
  } catch {}
  const classes = Object.values(module).filter(
    (v) =>
      typeof v === 'function' &&
      (v === module.QueryError || v.prototype instanceof module.QueryError),
  );
  const lines = [
    row(['Class (`type`)', 'Kind of', 'Code', 'HTTP', 'SQLSTATE']),
    row(['---', '---', '---', '---', '---']),
  ];
  for (const C of classes) {
    const e = new C('probe');
    const parent = C === module.QueryError ? '' : Object.getPrototypeOf(C).name;
    lines.push(row([C.name, parent, `\`${e.code}\``, e.status, e.sqlState ?? '']));
  }
  return lines.join('\n');
}

function configSection() {
  const lines = [
    row(['Key', 'Flag', 'Environment', 'TOML', 'Default', 'Meaning']),
    row(['---', '---', '---', '---', '---', '---']),
  ];
  const code = (s) => (s === undefined ? '' : `\`${s}\``);
  for (const f of SERVER_FIELDS) {
    lines.push(
      row([
        code(f.key),
        code(f.flag),
        code(f.env),
        f.toml ? `\`[${f.toml[0]}] ${f.toml[1]}\`` : '',
        f.default === undefined ? '' : code(JSON.stringify(f.default)),
        f.doc,
      ]),
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- the file

const replaceSection = (text, name, body, problems) =>
  replace(text, name, body, problems, { file: 'docs/http.md', script: 'scripts/docs-http.mjs' });

/** Every route docs/http.md names: table rows `| GET | \`/p\` |` and inline `GET /p`. */
function namedRoutes(text) {
  const named = [];
  const verbs = `(${[...METHODS, 'ANY'].join('|')})`;
  const tableRow = new RegExp(`^\\|\\s*${verbs}\\s*\\|\\s*\`([^\`]+)\``, 'gm');
  const inline = new RegExp(`\`${verbs} (/[^\`\\s]*)`, 'g');
  for (const re of [tableRow, inline]) {
    for (const m of text.matchAll(re)) named.push({ method: m[1], path: m[2].split('?')[0] });
  }
  return named;
}

/** `{id}`, `:id` and `*` all become one placeholder, for comparing route shapes. */
const shape = (path) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}').replace(/\/$/, '') || '/';

const { document, routes, mounts } = await readServer();
const original = readFileSync(DOC, 'utf8');
const problems = [];
let text = original;
text = replaceSection(text, 'routes', authSection(document), problems);
text = replaceSection(text, 'rest-routes', restSection(document), problems);
text = replaceSection(text, 'error-codes', errorCodeSection(), problems);
text = replaceSection(text, 'query-errors', queryErrorSection(), problems);
text = replaceSection(text, 'config', configSection(), problems);

// Routes both ways, on the text as it will be (so a regeneration cannot hide a problem).
const named = namedRoutes(text);
const namedKeys = new Set(named.map((r) => `${r.method} ${shape(r.path)}`));
const known = new Set();
const wantNamed = [];
for (const r of routes) {
  known.add(`${r.method} ${shape(r.path)}`);
  wantNamed.push(`${r.method} ${r.path}`);
}
for (const { method, path } of operations(document)) {
  const p = path.startsWith('/api/') ? restPattern(path) : path;
  known.add(`${method} ${shape(p)}`);
  wantNamed.push(`${method} ${p}`);
}
// The hosted pages (HTML, not in the OpenAPI document) are classified in @svc/auth's lockdown table.
for (const r of serverRequire('@svc/auth').AUTH_ROUTES) {
  if (r.feature !== 'pages') continue;
  known.add(`${r.method} ${shape(`/auth${r.path}`)}`);
  wantNamed.push(`${r.method} /auth${r.path}`);
}
const covered = new Set(['/auth', '/api']); // described operation by operation above
for (const m of mounts) {
  if (covered.has(m)) continue;
  known.add(`ANY ${m}/*`);
  wantNamed.push(`ANY ${m}/*`);
}
for (const want of new Set(wantNamed)) {
  const [method, path] = want.split(' ');
  if (!namedKeys.has(`${method} ${shape(path)}`))
    problems.push(`route ${want} is served but docs/http.md does not name it`);
}
for (const r of named) {
  const key = `${r.method} ${shape(r.path)}`;
  if (!known.has(key))
    problems.push(`docs/http.md names ${r.method} ${r.path}, which the server does not have`);
}
for (const e of core.registeredErrorCodes()) {
  if (!text.includes(`\`${e.code}\``))
    problems.push(`error code ${e.code} (${e.status}) is not in docs/http.md`);
}

if (check) {
  if (problems.length) {
    console.log(`docs/http.md: FAILED, ${problems.length} problem(s):`);
    for (const p of problems) console.log(`  - ${p}`);
    process.exit(1);
  }
  console.log(
    `docs/http.md: OK (${new Set(wantNamed).size} routes, ${core.registeredErrorCodes().length} error codes)`,
  );
} else {
  const stale = problems.some((p) => p.startsWith('section '));
  if (stale) {
    writeFileSync(DOC, text);
    // Formatted as `biome check` wants it (padded table cells), so the lint passes as written.
    spawnSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', DOC], { cwd: root });
  }
  const rest = problems.filter((p) => !p.startsWith('section '));
  for (const p of rest) console.log(`  - ${p}`);
  console.log(`docs/http.md: ${stale ? 'written' : 'unchanged'}`);
  process.exit(rest.length ? 1 : 0);
}
