// Tests of run-walkthrough.mjs's extraction (node's test runner; run by `pnpm lint`). The run
// itself is a step of .ci/run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { extractWalkthrough } from './run-walkthrough.mjs';

const doc = (inside) =>
  `# T\n\nintro\n\n<!-- walkthrough:begin -->\n${inside}\n<!-- walkthrough:end -->\n\nafter\n`;

test('the one sh block between the markers, with the line its code starts on', () => {
  const { code, firstLine } = extractWalkthrough(doc('\n```sh\nsvc init a\ncd a\n```\n'));
  assert.equal(code, 'svc init a\ncd a');
  assert.equal(firstLine, 8);
  assert.equal(doc('\n```sh\nsvc init a\ncd a\n```\n').split('\n')[firstLine - 1], 'svc init a');
});

test('refuses missing or doubled markers, and anything beside the one block', () => {
  assert.throws(() => extractWalkthrough('```sh\nls\n```\n'), /expected one/);
  assert.throws(
    () => extractWalkthrough(`${doc('```sh\nls\n```')}${doc('```sh\nls\n```')}`),
    /expected one/,
  );
  assert.throws(() => extractWalkthrough(doc('some text\n```sh\nls\n```')), /one ```sh block/);
  assert.throws(
    () => extractWalkthrough(doc('```sh\nls\n```\n```sh\npwd\n```')),
    /one ```sh block/,
  );
  assert.throws(() => extractWalkthrough(doc('```js\nls\n```')), /one ```sh block/);
  assert.throws(() => extractWalkthrough(doc('')), /one ```sh block/);
});

test("the README's walkthrough goes from svc init to a query, a REST call and a second migration", () => {
  const { code } = extractWalkthrough(
    fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
  );
  const commands = code.split('\n').map((l) => l.replace(/ *#.*$/, ''));
  const order = [
    /^svc init /,
    /^svc migration create$/,
    /^svc migrate$/,
    /^svc serve &$/,
    /^svc query /,
    /^curl .*\/api\//,
    /^svc migration create$/,
    /^svc migrate$/,
  ];
  let last = -1;
  for (const re of order) {
    const i = commands.findIndex((l, n) => n > last && re.test(l));
    assert.ok(i > last, `${re} after line ${last} of the walkthrough`);
    last = i;
  }
});
