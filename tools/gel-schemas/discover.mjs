// Finds the schemas Gel's tests run on, combined as each test class combines them. Gel's test
// base (edb/testbase/server.py) reads every class attribute named SCHEMA or SCHEMA_<NAME> (in
// name order), wraps each file's text in `module <name> { ... }` (SCHEMA: the class's
// DEFAULT_MODULE, `default` unless set; SCHEMA_<NAME>: <name> lower-cased, `_` becoming `::`),
// declares DEFAULT_MODULE as an empty module when it is not `default`, and migrates to the
// concatenation. This module mirrors that from the test files' text (attributes that are file
// paths or inline strings), dedupes equal combinations, and adds every in-scope .esdl file no
// class uses, alone in `default`.
//
// Input: a Gel checkout. Output: [{ name, sdl, usedBy: ['test_x.py:Class', ...] }], sorted.
import fs from 'node:fs';
import path from 'node:path';

/** Gel fixtures out of this issue's scope: extensions, and dump/graphql/explain fixtures. */
const OUT_OF_SCOPE = /(^|\/)(ext_ai|pgvector|pg_trgm|pg_unaccent|fts|dump|pg_dump|graphql|explain)/;

export function discoverUnits(gelDir) {
  const testsDir = path.join(gelDir, 'tests');
  const schemasDir = path.join(testsDir, 'schemas');
  const byKey = new Map();
  const usedFiles = new Set();
  for (const file of fs
    .readdirSync(testsDir)
    .filter((f) => /^test_.*\.py$/.test(f))
    .sort()) {
    const text = fs.readFileSync(path.join(testsDir, file), 'utf8');
    for (const cls of splitClasses(text)) {
      const attrs = schemaAttributes(cls.body);
      if (attrs.length === 0) continue;
      if (/^\s+EXTENSIONS\s*=\s*\[\s*['"]/m.test(cls.body)) continue; // extension fixtures
      const defaultModule =
        /^\s+DEFAULT_MODULE\s*=\s*['"](\w+)['"]/m.exec(cls.body)?.[1] ?? 'default';
      const parts = attrs.map((a) => ({
        module: (a.suffix ?? defaultModule).toLowerCase().replaceAll('_', '::'),
        ...a.source,
      }));
      if (parts.some((p) => p.file && OUT_OF_SCOPE.test(p.file))) continue;
      for (const p of parts) if (p.file) usedFiles.add(p.file);
      const key = JSON.stringify([defaultModule, parts.map((p) => [p.module, p.file ?? p.text])]);
      const entry = byKey.get(key);
      if (entry) {
        entry.usedBy.push(`${file}:${cls.name}`);
        continue;
      }
      byKey.set(key, {
        name: unitName(parts, `${file}:${cls.name}`),
        sdl: combine(schemasDir, defaultModule, parts),
        usedBy: [`${file}:${cls.name}`],
      });
    }
  }
  for (const file of listEsdl(schemasDir)) {
    if (usedFiles.has(file) || OUT_OF_SCOPE.test(file)) continue;
    byKey.set(file, {
      name: file,
      sdl: combine(schemasDir, 'default', [{ module: 'default', file }]),
      usedBy: [],
    });
  }
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function combine(schemasDir, defaultModule, parts) {
  const chunks = defaultModule === 'default' ? [] : [`\nmodule ${defaultModule} {}`];
  for (const p of parts) {
    const text = p.file ? fs.readFileSync(path.join(schemasDir, p.file), 'utf8') : p.text;
    chunks.push(`\nmodule ${p.module} { ${text} }`);
  }
  return chunks.join('');
}

function unitName(parts, owner) {
  return parts
    .map((p) => {
      const what = p.file ?? `${owner}.${p.attr}`;
      return p.module === 'default' ? what : `${p.module}:${what}`;
    })
    .join(' + ');
}

function listEsdl(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listEsdl(dir, rel));
    else if (entry.name.endsWith('.esdl')) out.push(rel);
  }
  return out.sort();
}

/** Top-level classes of a Python file: name and indented body. */
function splitClasses(text) {
  const out = [];
  const re = /^class (\w+)\b[^\n]*\n/gm;
  const starts = [...text.matchAll(re)];
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].index : text.length;
    out.push({ name: m[1], body: text.slice(m.index + m[0].length, end) });
  });
  return out;
}

/**
 * The class-level SCHEMA / SCHEMA_<NAME> assignments (4-space indent), sorted by attribute name
 * as Python's dir() lists them: each a path under tests/schemas or an inline string.
 */
function schemaAttributes(body) {
  const out = [];
  const re = /^ {4}(SCHEMA(?:_(\w+))?)\s*=\s*/gm;
  for (const m of body.matchAll(re)) {
    const rest = body.slice(m.index + m[0].length);
    const inline = /^r?('''|""")([\s\S]*?)\1/.exec(rest);
    if (inline) {
      out.push({ attr: m[1], suffix: m[2], source: { attr: m[1], text: inline[2] } });
      continue;
    }
    const statement = takeStatement(rest);
    const literals = [...statement.matchAll(/['"]([^'"]+)['"]/g)].map((l) => l[1]);
    const at = literals.indexOf('schemas');
    if (at < 0 || !literals.at(-1).endsWith('.esdl')) continue;
    out.push({
      attr: m[1],
      suffix: m[2],
      source: { attr: m[1], file: literals.slice(at + 1).join('/') },
    });
  }
  return out.sort((a, b) => (a.attr < b.attr ? -1 : a.attr > b.attr ? 1 : 0));
}

/** One Python expression statement: up to the end of the line where brackets balance. */
function takeStatement(text) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '\n' && depth <= 0) return text.slice(0, i);
  }
  return text;
}
