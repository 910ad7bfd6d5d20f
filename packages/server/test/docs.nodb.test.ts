import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_FIELDS, SERVER_FIELDS } from '../src';

// The README's configuration table is the user's reference: every setting must be in it, with
// its flag, environment variable, TOML key and default.
describe('README configuration table', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const rows = readme.split('\n').filter((l) => l.startsWith('| '));

  test.each([...SERVER_FIELDS, ...DATABASE_FIELDS].map((f) => [f.key, f] as const))(
    '%s',
    (_key, field) => {
      const row = rows.find((r) =>
        field.toml ? r.includes(`\`[${field.toml[0]}] ${field.toml[1]}\``) : false,
      );
      expect(row).toBeDefined();
      if (field.flag) expect(row).toContain(`\`${field.flag}\``);
      if (field.env) expect(row).toContain(`\`${field.env}\``);
      if (field.default !== undefined) expect(row).toContain(`\`${String(field.default)}\``);
    },
  );
});
