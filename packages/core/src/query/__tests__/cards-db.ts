/**
 * The cards fixture (../__fixtures__/cards.esdl) with the data of Gel's cards_setup.edgeql,
 * written as plain SQL, so Gel's expected results (tests/test_edgeql_*.py over cards) apply.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDefaultMigrator, buildSchema } from '../../schema';
import { createTestDatabase } from '../../testing';
import { compileQuery } from '../compile';
import { runBothForms } from './both-forms';
import type { IssuesDb } from './issues-db';

export const CARDS_SDL = readFileSync(join(__dirname, '../__fixtures__/cards.esdl'), 'utf8');

const uuid = (group: number, n: number): string =>
  `00000000-0000-0000-${String(group).padStart(4, '0')}-${String(n).padStart(12, '0')}`;

const AWARDS = ['1st', '2nd', '3rd'] as const;
const award = (name: string): string =>
  uuid(1, AWARDS.indexOf(name as (typeof AWARDS)[number]) + 1);

/** name, element, cost, text, awards, special */
const CARDS: readonly [string, string, number, string | null, readonly string[], boolean][] = [
  ['Imp', 'Fire', 1, null, ['2nd'], false],
  ['Dragon', 'Fire', 5, 'Watch your back', ['1st', '3rd'], false],
  ['Bog monster', 'Water', 2, null, [], false],
  ['Giant turtle', 'Water', 3, 'The world rides through space', [], false],
  ['Dwarf', 'Earth', 1, 'The dwarves of yore', [], false],
  ['Golem', 'Earth', 3, 'Every golem', [], false],
  ['Sprite', 'Air', 1, null, [], false],
  ['Giant eagle', 'Air', 2, 'The North Wind blows', [], false],
  ['Djinn', 'Air', 4, 'Phenomenal cosmic powers!', ['3rd'], true],
];
const card = (name: string): string => uuid(2, CARDS.findIndex((c) => c[0] === name) + 1);
const cardOf = (name: string) => CARDS.find((c) => c[0] === name) as (typeof CARDS)[number];

const USERS = ['Alice', 'Bob', 'Carol', 'Dave'] as const;
const user = (name: string): string => uuid(3, USERS.indexOf(name as (typeof USERS)[number]) + 1);

/** Each user's deck: card → @count, as cards_setup.edgeql computes it. */
function deck(name: string): [string, number][] {
  const all = CARDS.map((c) => c[0]);
  switch (name) {
    case 'Alice':
      return all
        .filter((c) => ['Fire', 'Water'].includes(cardOf(c)[1]))
        .map((c) => [c, cardOf(c)[1].length - 2]);
    case 'Bob':
      return all.filter((c) => ['Earth', 'Water'].includes(cardOf(c)[1])).map((c) => [c, 3]);
    case 'Carol':
      return all.filter((c) => cardOf(c)[1] !== 'Fire').map((c) => [c, 5 - cardOf(c)[2]]);
    default:
      return all
        .filter((c) => cardOf(c)[1] === 'Air' || cardOf(c)[2] !== 1)
        .map((c) => [c, cardOf(c)[2] === 1 ? 4 : 1]);
  }
}

const q = (s: string | null): string => (s === null ? 'null' : `'${s.replace(/'/g, "''")}'`);

function data(): string[] {
  const out: string[] = [];
  out.push(
    `insert into "default"."Award" (id, name) values ${AWARDS.map((a) => `('${award(a)}', '${a}')`).join(', ')}`,
  );
  for (const [name, element, cost, text, awards, special] of CARDS) {
    const table = special ? 'SpecialCard' : 'Card';
    out.push(
      `insert into "default"."${table}" (id, name, element, cost, text) values ('${card(name)}', ${q(name)}, '${element}', ${cost}, ${q(text)})`,
    );
    for (const a of awards) {
      out.push(
        `insert into "default"."${table}.awards" (source, target) values ('${card(name)}', '${award(a)}')`,
      );
    }
  }
  const avatar: Record<string, [string, string] | null> = {
    Alice: ['Dragon', 'Best'],
    Bob: null,
    Carol: null,
    Dave: ['Djinn', 'Wow'],
  };
  for (const name of USERS) {
    const table = name === 'Dave' ? 'Bot' : 'User';
    const av = avatar[name];
    out.push(
      `insert into "default"."${table}" (id, name, avatar, "avatar@text") values ('${user(name)}', '${name}', ${av ? `'${card(av[0])}'` : 'null'}, ${q(av ? av[1] : null)})`,
    );
    for (const [c, count] of deck(name)) {
      out.push(
        `insert into "default"."${table}.deck" (source, target, count) values ('${user(name)}', '${card(c)}', ${count})`,
      );
    }
  }
  const awards: Record<string, string[]> = { Alice: ['1st', '2nd'], Bob: ['3rd'] };
  for (const [name, list] of Object.entries(awards)) {
    for (const a of list)
      out.push(
        `insert into "default"."User.awards" (source, target) values ('${user(name)}', '${award(a)}')`,
      );
  }
  const friends: [string, string, string | null][] = [
    ['Alice', 'Bob', 'Swampy'],
    ['Alice', 'Carol', 'Firefighter'],
    ['Alice', 'Dave', 'Grumpy'],
    ['Dave', 'Bob', null],
  ];
  for (const [from, to, nickname] of friends) {
    const table = from === 'Dave' ? 'Bot' : 'User';
    out.push(
      `insert into "default"."${table}.friends" (source, target, nickname) values ('${user(from)}', '${user(to)}', ${q(nickname)})`,
    );
  }
  return out;
}

export async function openCardsDb(): Promise<IssuesDb> {
  const tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, CARDS_SDL);
  for (const statement of data()) await tdb.db.query(statement);
  const schema = buildSchema(CARDS_SDL);
  return {
    schema,
    tdb,
    async run(query, variables = {}, options = {}) {
      const compiled = compileQuery(schema, query, options);
      const params = compiled.params.map((p) => {
        const value = variables[p.name];
        return value === undefined || value === null ? null : JSON.stringify(value);
      });
      return runBothForms(tdb.db, compiled, params);
    },
  };
}
