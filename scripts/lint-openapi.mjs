#!/usr/bin/env node
// Lints svc's OpenAPI 3.1 document with Redocly's rules through their library,
// @redocly/openapi-core, called in this process (not the Redocly CLI: the CLI can send usage
// data, and issue 31 wants no telemetry-capable package in the tree). openapi-core has no
// install script and no telemetry; the only network calls it can make are fetching a `$ref`
// that is a URL, and Redocly's registry API, which only its login and token checks call. This
// script loads no config file and no credentials (`createConfig`, not `loadConfig`), and its
// resolver refuses every reference outside the document, URL or file: svc's document is
// self-contained, so such a reference is a finding (`no-unresolved-refs`), never a download.
//
// Rules (RULES): Redocly's `recommended` set as openapi-core ships it, with the severities the
// Redocly CLI 2.77 recommended set (which this lint replaced) gives the same rules where the CLI
// was stricter, and svc's own versions (SVC_RULES) of the CLI rules openapi-core 1.34 lacks, as
// errors (the CLI warned). Left out: the CLI's `no-unsafe-markdown` and
// `no-illogical-composition-keywords` (warnings there, so they never failed this check).
//
// Usage: node scripts/lint-openapi.mjs              the served document (after the build): an svc
//          server (built packages, embedded PGlite in memory, auth on, requireAuth on) on
//          127.0.0.1 with the fixture schema of @svc/rest's document tests (every feature:
//          expand, hidden, computeds, multi and union links, enums, every scalar kind), its
//          /api/openapi.json fetched with the service key
//        node scripts/lint-openapi.mjs FILE.json...  documents on disk
// Prints each finding and one summary line; exits 1 on any error (warnings pass), 0 otherwise.
// Tested by lint-openapi.test.mjs (`node --test`, in `pnpm lint`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import redocly from '@redocly/openapi-core';

const { BaseResolver, ResolveError, createConfig, getLineColLocation, lintFromString } = redocly;

/** The CLI's recommended severities where they are above openapi-core's (OpenAPI 3.1). */
const RAISED = {
  'no-invalid-parameter-examples': 'warn',
  'no-invalid-schema-examples': 'warn',
  'no-required-schema-properties-undefined': 'warn',
  'no-schema-type-mismatch': 'error',
};

const byValue = (values) => {
  const seen = new Set();
  return values.flatMap((value, i) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return [i];
    seen.add(key);
    return [];
  });
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** svc's versions of the CLI's recommended rules that openapi-core 1.34 does not have. */
const SVC_RULES = {
  'no-duplicated-enum-values': () => ({
    Schema(schema, { report, location }) {
      if (!Array.isArray(schema.enum)) return;
      for (const i of byValue(schema.enum))
        report({
          message: `Duplicate value in \`enum\`: ${JSON.stringify(schema.enum[i])}.`,
          location: location.child(['enum', i]),
        });
    },
  }),
  'no-duplicated-tag-names': () => ({
    Root(root, { report, location }) {
      const tags = Array.isArray(root.tags) ? root.tags : [];
      for (const i of byValue(tags.map((t) => t?.name)))
        report({
          message: `Duplicate tag name: '${tags[i].name}'.`,
          location: location.child(['tags', i, 'name']),
        });
    },
  }),
  'no-mixed-number-range-constraints': () => ({
    Schema(schema, { report, location }) {
      for (const [bound, exclusive] of [
        ['minimum', 'exclusiveMinimum'],
        ['maximum', 'exclusiveMaximum'],
      ]) {
        if (bound in schema && exclusive in schema)
          report({
            message: `Schema has both \`${bound}\` and \`${exclusive}\`; keep one.`,
            location: location.child([exclusive]).key(),
          });
      }
    },
  }),
  // Each scope a security requirement names must be one of its OAuth 2 scheme's flows' scopes.
  'security-scopes-defined': () => ({
    Root(root, { report, location, resolve }) {
      const schemes = root.components?.securitySchemes ?? {};
      const check = (requirements, at) => {
        if (!Array.isArray(requirements)) return;
        requirements.forEach((requirement, i) => {
          for (const [name, scopes] of Object.entries(requirement ?? {})) {
            const scheme = resolve(schemes[name]).node;
            if (scheme?.type !== 'oauth2' || !Array.isArray(scopes)) continue;
            const defined = new Set(
              Object.values(scheme.flows ?? {}).flatMap((f) => Object.keys(f?.scopes ?? {})),
            );
            scopes.forEach((scope, j) => {
              if (!defined.has(scope))
                report({
                  message: `Scope '${scope}' is not defined by the '${name}' scheme's flows.`,
                  location: location.child([...at, i, name, j]),
                });
            });
          }
        });
      };
      check(root.security, ['security']);
      for (const [p, item] of Object.entries(root.paths ?? {}))
        for (const m of METHODS)
          if (item?.[m]) check(item[m].security, ['paths', p, m, 'security']);
    },
  }),
  // OpenAPI 3.1 ignores a Reference Object's fields beside `summary` and `description`
  // (a Schema Object's `$ref` may have any sibling).
  'spec-ref-siblings': () => ({
    ref(node, { report, rawLocation, type }) {
      if (type.name === 'Schema') return;
      for (const key of Object.keys(node)) {
        if (key === '$ref' || key === 'summary' || key === 'description') continue;
        report({
          message: `\`${key}\` beside \`$ref\` is ignored here.`,
          location: rawLocation.child([key]).key(),
        });
      }
    },
  }),
};

/** The rules this lint applies, as a Redocly config (no file, no plugins from disk). */
const RULES = {
  extends: ['recommended'],
  plugins: [{ id: 'svc', rules: { oas3: SVC_RULES } }],
  rules: Object.fromEntries(Object.keys(SVC_RULES).map((id) => [`svc/${id}`, 'error'])),
  oas3_1Rules: RAISED,
};

/** Resolves references inside the document only: anything outside it is not loaded. */
class InsideOnlyResolver extends BaseResolver {
  async loadExternalRef(absoluteRef) {
    throw new ResolveError(
      new Error(`${absoluteRef} is outside the document (not loaded: it must be self-contained)`),
    );
  }
}

/**
 * Lints `document`: an object (printed with two-space indentation), or the text of a JSON
 * document. `name` labels the findings. Resolves with the counts and each finding `{severity,
 * ruleId, message, pointer, line, col}` (the JSON pointer of the place, and its line and column
 * in that text).
 */
export async function lintOpenApi(document, name = 'openapi.json') {
  const config = await createConfig(RULES);
  const source = typeof document === 'string' ? document : `${JSON.stringify(document, null, 2)}\n`;
  const found = await lintFromString({
    source,
    absoluteRef: path.resolve(name),
    config,
    externalRefResolver: new InsideOnlyResolver(config.resolve),
  });
  const problems = found
    .filter((p) => !p.ignored)
    .map((p) => {
      const { start } = getLineColLocation(p.location[0]);
      const { pointer } = p.location[0];
      return { severity: p.severity, ruleId: p.ruleId, message: p.message, pointer, ...start };
    })
    .sort((a, b) => a.line - b.line || a.col - b.col);
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { errors, warnings: problems.length - errors, problems };
}

/** One line per finding, as `name:line:col  severity  rule  message  (at pointer)`. */
function formatFindings(name, problems) {
  return problems.map(
    (p) =>
      `${name}:${p.line}:${p.col}  ${p.severity}  ${p.ruleId}  ${p.message}  (at ${p.pointer})`,
  );
}

async function lintAndReport(name, document, what) {
  const { errors, warnings, problems } = await lintOpenApi(document, name);
  for (const line of formatFindings(name, problems)) console.log(line);
  console.log(
    `openapi lint: ${errors === 0 ? 'OK' : 'FAILED'}, ${errors} errors, ${warnings} warnings (Redocly recommended rules of ${what})`,
  );
  return errors === 0;
}

async function main(files) {
  if (files.length > 0) {
    let ok = true;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      JSON.parse(text); // a clear message for a file that is not JSON
      if (!(await lintAndReport(file, text, file))) ok = false;
    }
    return ok;
  }
  const { startReferenceServer } = await import('./reference-server.mjs');
  const reference = await startReferenceServer();
  try {
    return await lintAndReport(
      'openapi.json',
      await reference.openapi(),
      '/api/openapi.json, fixture schema, requireAuth on',
    );
  } finally {
    await reference.server.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let code = 1;
  try {
    code = (await main(process.argv.slice(2))) ? 0 : 1;
  } catch (err) {
    console.log(`openapi lint: FAILED (${err instanceof Error ? err.message : String(err)})`);
  }
  process.exit(code);
}
