// Loads @svc/core from its TypeScript sources (packages/core/src), compiled on require by SWC
// (already a dev dependency of the repository, as Jest uses it), so the runner always checks the
// working tree without a build. Output: { schema, testing } module namespaces.
import Module, { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../..');
const coreSrc = path.join(root, 'packages/core/src');

export function loadCore() {
  const require = createRequire(path.join(root, 'package.json'));
  const swc = require('@swc/core');
  const options = {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  };
  Module._extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
    module._compile(code, filename);
  };
  const coreRequire = createRequire(path.join(coreSrc, 'index.ts'));
  return {
    schema: coreRequire('./schema/index.ts'),
    testing: coreRequire('./testing.ts'),
  };
}
