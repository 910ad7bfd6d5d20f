/*
 * Literals read back the same whatever the session's standard_conforming_strings (a pooler may
 * hand svc a connection where it is off), on the engine SVC_TEST_DB names.
 */
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '../../testing';
import { quoteBytea, quoteLiteral } from './quote';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb.dispose();
});

const samples = ['plain', "it's", 'back\\slash', '\\x41', "a\\'b", 'tab\\t', '\\\\'];

test.each(['on', 'off'])('standard_conforming_strings = %s', async (setting) => {
  await tdb.db.transaction(async (tx) => {
    await tx.query(`set local standard_conforming_strings = ${setting}`);
    await tx.query('set local escape_string_warning = off');
    const values = [
      ...samples,
      ...fc.sample(
        fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000')),
        { numRuns: 50, seed: 7 },
      ),
    ];
    const { rows } = await tx.query<{ v: string }>(
      values.map((v) => `select ${quoteLiteral(v)}::text as v`).join(' union all '),
    );
    expect(rows.map((r) => r.v)).toEqual(values);
    const bytes = await tx.query<{ hex: string }>(
      `select encode(${quoteBytea(new Uint8Array([0, 92, 255]))}, 'hex') as hex`,
    );
    expect(bytes.rows[0]?.hex).toBe('005cff');
  });
});
