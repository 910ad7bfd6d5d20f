// Removes the given folders (relative to the current directory) before a build, so a renamed
// source file never leaves a stale output behind. Portable where `rm -rf` is not.
import fs from 'node:fs';
for (const dir of process.argv.slice(2)) fs.rmSync(dir, { recursive: true, force: true });
