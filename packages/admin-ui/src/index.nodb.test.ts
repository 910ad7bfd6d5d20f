/**
 * The built files this package hands a server (after `pnpm build`): the manifest names files that
 * are there, each asset's name carries the hash of its content (so a year-long immutable cache is
 * safe), and the page loads only those assets, with no inline script, style or handler (it runs
 * under `script-src 'self'`). An unbuilt folder is a clear error.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminUiAssetsDir, adminUiManifest } from './index';

const manifest = adminUiManifest();
const read = (name: string) => fs.readFileSync(path.join(adminUiAssetsDir, name));

test('the manifest lists the page and assets, and nothing else is in the folder', () => {
  expect(manifest.index).toBe('index.html');
  expect(manifest.assets.length).toBeGreaterThanOrEqual(2);
  expect(fs.readdirSync(adminUiAssetsDir).sort()).toEqual(
    [manifest.index, 'manifest.json', ...manifest.assets].sort(),
  );
});

test('each asset is named by the hash of its content', () => {
  for (const name of manifest.assets) {
    const hash = crypto.createHash('sha256').update(read(name)).digest('hex').slice(0, 12);
    expect(name).toMatch(new RegExp(`^[a-z]+-${hash}\\.(js|css|svg)$`));
  }
});

test('the page loads exactly the listed assets, with no inline script, style or handler', () => {
  const html = read(manifest.index).toString('utf8');
  const loaded = [...html.matchAll(/(?:src|href)="\/_\/assets\/([^"]+)"/g)].map((m) => m[1]);
  expect(loaded.sort()).toEqual([...manifest.assets].sort());
  // Every <script> has a src and no body.
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    expect(m[1]).toMatch(/\ssrc="/);
    expect(m[2]).toBe('');
  }
  expect(html).not.toMatch(/<style\b/i);
  expect(html).not.toMatch(/\sstyle="/i);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  expect(html).not.toMatch(/javascript:/i);
  // Nothing from elsewhere: every URL is the server's own.
  expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i);
});

test('a folder without a build is a clear error naming the fix', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-ui-'));
  try {
    expect(() => adminUiManifest(empty)).toThrow(/not built.*pnpm build/);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
