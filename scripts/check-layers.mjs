// Checks that imports run one way: down the layers of a package, and along the arrows between
// packages. Reads every non-test .ts file under packages/*/src and apps/*/src, resolves its
// relative imports and its imports of the repository's packages, and fails (exit 1) naming the file, the import and
// both layers (or packages) when an import runs upward. Dependency-free; run by `pnpm lint` (and
// so by .ci/run), tested by check-layers.test.mjs (`node --test`, also in `pnpm lint`).
//
// A package's layers are an ordered list, bottom first; a layer is a list of paths under src/
// (a folder or a file), and a file belongs to the layer of its longest matching path. A file may
// import its own layer and the layers below, and no import cycle may cross folders (files of two
// folders importing each other, even within one layer). A package without a list has no layer
// or cycle check, only the package check. Test code is not checked: *.test.ts files and __tests__ folders.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Which packages each package may import (ARCHITECTURE.md, "Packages and who imports whom").
 * @svc/test-support is a devDependency only: no package's shipped code imports it. @svc/dom is
 * bundled into the browser pages (admin-ui app/, rest page/, the demo's app/) at build time.
 */
export const PACKAGE_IMPORTS = {
  '@svc/smtp': [],
  '@svc/client': [],
  '@svc/core': [],
  '@svc/test-support': [],
  '@svc/dom': [],
  '@svc/auth': ['@svc/core', '@svc/smtp'],
  '@svc/rest': ['@svc/core'],
  '@svc/admin-ui': [],
  '@svc/server': ['@svc/core', '@svc/auth', '@svc/rest', '@svc/admin-ui'],
  '@svc/cli': ['@svc/server', '@svc/auth', '@svc/core'],
  // the starter behind `npm create svc`: runs @svc/cli's own `svc init`
  'create-svc': ['@svc/cli'],
  '@svc/demo': ['@svc/server'],
};

/** The layers of each package, bottom first (paths under the package's src/). */
export const LAYERS = {
  '@svc/core': [
    // leaf helpers that import nothing: JSON depth and printing, HTML escaping
    { name: 'base', paths: ['json.ts', 'html.ts', 'copy-on-write.ts'] },
    // the error hierarchy, the code registry, the envelope renderer
    { name: 'errors', paths: ['errors'] },
    // pg | PGlite behind one interface
    { name: 'db', paths: ['db'] },
    // EdgeQL and SDL lexer, parser, printer
    { name: 'syntax', paths: ['syntax'] },
    // the Schema model, std enums, fts names, the schema module's types, migration plan types
    { name: 'model', paths: ['model'] },
    // the PostgreSQL AST, printer, quoting, DDL codegen: knows no model
    { name: 'sql', paths: ['sql'] },
    // storage names and types, the storage layout (handed the DDL compiler), the migrator
    { name: 'storage', paths: ['storage'] },
    // the one table of scalar types, operators, functions and casts
    { name: 'std', paths: ['std'] },
    // the schema index, binder, planner, compileQuery, and the engine
    { name: 'query', paths: ['query'] },
    // SDL → Schema, the DDL expression compiler, the migration planner, bootstrap SQL
    { name: 'schema', paths: ['schema'] },
    // the conformance corpus runner (builds schemas and migrates test databases)
    { name: 'conformance', paths: ['query/conformance'] },
    // the package's entry points
    { name: 'entry', paths: ['index.ts', 'ql.ts', 'testing.ts'] },
  ],
};

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/gm;

/** The module specifiers a source file imports (static, dynamic, re-exports, require). */
export function importsOf(text) {
  // Comments may quote imports (`import * as ql from './syntax'` in a doc comment).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(SPECIFIER)].map((m) => m[2]);
}

const isTest = (rel) =>
  /\.test\.ts$/.test(rel) || rel.split('/').includes('__tests__') || rel.endsWith('.d.ts');

function sourceFiles(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

function resolveRelative(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, `${base}.ts`, path.join(base, 'index.ts')];
  if (base.endsWith('.js')) candidates.push(`${base.slice(0, -3)}.ts`);
  return candidates.find((c) => c.endsWith('.ts') && fs.existsSync(c)) ?? null;
}

function layerOf(layers, rel) {
  let best = null;
  for (const [index, layer] of layers.entries()) {
    for (const p of layer.paths) {
      if ((rel === p || rel.startsWith(`${p}/`)) && (!best || p.length > best.length)) {
        best = { index, name: layer.name, length: p.length };
      }
    }
  }
  return best;
}

/** The packages under `root` (packages/* and apps/*) with their name and src folder. */
export function findPackages(root) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      const manifest = path.join(dir, name, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      found.push({ name: pkg.name, dir: path.join(dir, name), src: path.join(dir, name, 'src') });
    }
  }
  return found;
}

/**
 * The upward imports under `root`, as messages (empty when the imports all run down).
 * `packageImports` and `layers` default to this repository's (above).
 */
export function checkLayers(root, { packageImports = PACKAGE_IMPORTS, layers = LAYERS } = {}) {
  const problems = [];
  const packages = findPackages(root);
  for (const pkg of packages) {
    const allowed = packageImports[pkg.name];
    if (!allowed) {
      problems.push(`${pkg.name}: not in the package list of scripts/check-layers.mjs`);
      continue;
    }
    const list = layers[pkg.name];
    const graph = new Map(); // file → the files it imports (src-relative), for the cycle check
    for (const file of sourceFiles(pkg.src)) {
      const rel = path.relative(pkg.src, file).split(path.sep).join('/');
      if (isTest(rel)) continue;
      const shown = path.relative(root, file).split(path.sep).join('/');
      const own = list ? layerOf(list, rel) : null;
      if (list && !own) {
        problems.push(`${shown}: in no layer of ${pkg.name} (add it to scripts/check-layers.mjs)`);
        continue;
      }
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        const named = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : null;
        if (named && Object.hasOwn(packageImports, named)) {
          const target = named;
          if (target !== pkg.name && !allowed.includes(target)) {
            problems.push(
              `${shown}: imports '${spec}', but ${pkg.name} may import only ${allowed.length ? allowed.join(', ') : 'no other package'}`,
            );
          }
          continue;
        }
        if (!spec.startsWith('.') || !list) continue;
        const target = resolveRelative(file, spec);
        if (!target) continue; // not a .ts module (package.json, a JSON file)
        const targetRel = path.relative(pkg.src, target).split(path.sep).join('/');
        if (targetRel.startsWith('..')) {
          problems.push(`${shown}: imports '${spec}', outside ${pkg.name}'s src/`);
          continue;
        }
        if (!isTest(targetRel)) {
          if (!graph.has(rel)) graph.set(rel, new Set());
          graph.get(rel).add(targetRel);
        }
        const theirs = layerOf(list, targetRel);
        if (!theirs) continue; // reported as a file in no layer
        if (theirs.index > own.index) {
          problems.push(
            `${shown} (layer ${own.name}) imports '${spec}' (layer ${theirs.name}): an import up the layers`,
          );
        }
      }
    }
    for (const cycle of cyclesAcrossFolders(graph)) {
      const shown = cycle.map((f) =>
        path.relative(root, path.join(pkg.src, f)).split(path.sep).join('/'),
      );
      problems.push(`an import cycle across folders: ${shown.join(', ')} import each other`);
    }
  }
  return problems;
}

const folderOf = (file) => path.posix.dirname(file);

/**
 * The strongly connected sets of files (Tarjan) whose files are in more than one folder, each
 * sorted. A cycle inside one folder is that folder's business; one across folders means two
 * folders (or a folder and its parent) depend on each other.
 */
export function cyclesAcrossFolders(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (new Set(component.map(folderOf)).size > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const problems = checkLayers(root);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} import(s) against the layers:`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log('check-layers: every import runs down the layers and along the package arrows');
}
