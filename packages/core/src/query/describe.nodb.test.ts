/**
 * query/describe against what svc answers: every result the conformance corpus expects (the
 * answers svc gives, checked by conformance.test.ts) must fit the descriptor `describe` gives
 * for its query, so the descriptor and the planner's JSON form (plan/output) cannot drift apart.
 * Plus the descriptors of a few queries written out.
 */
import type { DescribedCardinality, QueryDescription, TypeDescriptor } from './api';
import { buildSchema } from '../schema/build';
import { NUMERIC } from '../std/casts/implicit';
import { compileQuery } from './compile';
import { FIXTURES_DIR, caseTitle, loadCorpus } from './conformance/corpus';
import { readFixture } from './conformance/run-case';

const NUMBER_SCALARS = new Set([...NUMERIC, 'std::sequence']);
/** Scalars whose JSON may also be a string of digits (beyond a double's exact integers). */
const DIGIT_STRINGS = new Set(['std::int64', 'std::bigint', 'std::decimal', 'std::sequence']);
const PLACEHOLDERS = new Set(['<any>', '<uuid>', '<datetime>']);

/** `null` when `value` is a JSON form `type` describes, else where and why not. */
function misfit(type: TypeDescriptor, value: unknown, path: string): string | null {
  if (typeof value === 'string' && PLACEHOLDERS.has(value)) return null;
  const wrong = (what: string) => `${path}: expected ${what}, got ${JSON.stringify(value)}`;
  switch (type.kind) {
    case 'empty':
      return wrong('nothing');
    case 'scalar': {
      const name = type.base ?? type.name;
      if (name === 'std::json') return null;
      if (NUMBER_SCALARS.has(name))
        return typeof value === 'number' ||
          (DIGIT_STRINGS.has(name) && typeof value === 'string' && /^-?\d/.test(value))
          ? null
          : wrong(name);
      if (name === 'std::bool') return typeof value === 'boolean' ? null : wrong(name);
      return typeof value === 'string' ? null : wrong(name);
    }
    case 'enum':
      return typeof value === 'string' && type.values.includes(value) ? null : wrong(type.name);
    case 'id':
      return typeof value === 'string' ? null : wrong(`the id of a ${type.name}`);
    case 'array':
    case 'multirange':
      if (!Array.isArray(value)) return wrong(`an array (${type.kind})`);
      for (const [i, item] of value.entries()) {
        const element: TypeDescriptor =
          type.kind === 'array' ? type.element : { kind: 'range', element: type.element };
        const problem = misfit(element, item, `${path}[${i}]`);
        if (problem) return problem;
      }
      return null;
    case 'range':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? null
        : wrong('a range object');
    case 'tuple':
      if (!Array.isArray(value) || value.length !== type.elements.length)
        return wrong(`a tuple of ${type.elements.length}`);
      for (const [i, element] of type.elements.entries()) {
        const problem = misfit(element, value[i], `${path}[${i}]`);
        if (problem) return problem;
      }
      return null;
    case 'namedtuple':
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return wrong(`an object (${type.kind === 'object' ? type.name : 'named tuple'})`);
      const record = value as Record<string, unknown>;
      const fields =
        type.kind === 'namedtuple'
          ? type.elements.map((e) => ({ name: e.name, cardinality: 'one' as const, type: e.type }))
          : type.pointers;
      const names = fields.map((f) => f.name);
      const keys = Object.keys(record);
      if (keys.length !== names.length || keys.some((k) => !names.includes(k)))
        return `${path}: keys ${JSON.stringify(keys)}, described ${JSON.stringify(names)}`;
      for (const field of fields) {
        const problem = fieldMisfit(
          field.cardinality,
          field.type,
          record[field.name],
          `${path}.${field.name}`,
        );
        if (problem) return problem;
      }
      return null;
    }
  }
}

/** A pointer's JSON: an array when multi; a value or null when single (docs/http.md: a single
 * link shown with a sub-shape is an array of its object in `/query`'s answers). */
function fieldMisfit(
  cardinality: DescribedCardinality,
  type: TypeDescriptor,
  value: unknown,
  path: string,
): string | null {
  if (cardinality === 'many' || cardinality === 'atLeastOne') {
    if (!Array.isArray(value))
      return `${path}: a ${cardinality} element is an array, got ${JSON.stringify(value)}`;
    return misfitAll(type, value, path);
  }
  if (value === null) return null;
  if (type.kind === 'object' && Array.isArray(value) && value.length === 1)
    return misfit(type, value[0], `${path}[0]`);
  return misfit(type, value, path);
}

function misfitAll(type: TypeDescriptor, values: readonly unknown[], path: string): string | null {
  for (const [i, value] of values.entries()) {
    const problem = misfit(type, value, `${path}[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function sizeFits(cardinality: DescribedCardinality, n: number): boolean {
  switch (cardinality) {
    case 'empty':
      return n === 0;
    case 'atMostOne':
      return n <= 1;
    case 'one':
      return n === 1;
    case 'atLeastOne':
      return n >= 1;
    case 'many':
      return true;
  }
}

describe('every result of the conformance corpus fits its query description', () => {
  for (const group of loadCorpus('cases')) {
    const schema = buildSchema(readFixture(FIXTURES_DIR, group.fixture).sdl);
    const checks = group.cases.flatMap((c) =>
      c.steps.flatMap((step, i) =>
        step.kind === 'query' && step.expect.kind === 'result' && Array.isArray(step.expect.value)
          ? [{ title: `${caseTitle(c)} (step ${i + 1})`, step, value: step.expect.value }]
          : [],
      ),
    );
    if (checks.length === 0) continue;
    test(`fixture ${group.fixture}: ${checks.length} results`, () => {
      const problems: string[] = [];
      for (const { title, step, value } of checks) {
        const { description } = compileQuery(schema, step.text, { describe: true });
        const { output, cardinality } = description as QueryDescription;
        const problem = !sizeFits(cardinality, value.length)
          ? `$: ${value.length} element(s), described ${cardinality}`
          : misfitAll(output, value, '$');
        if (problem) problems.push(`${title}: ${problem}\n  ${JSON.stringify(output)}`);
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('descriptors written out', () => {
  const schema = buildSchema(`
    scalar type Mood extending enum<happy, sad>;
    scalar type Handle extending str;
    type Person {
      required name: str;
      mood: Mood;
      handle: Handle;
      multi friends: Person;
      best: Person;
    }
  `);
  const describe = (text: string) =>
    compileQuery(schema, text, { describe: true }).description as QueryDescription;
  const str = { kind: 'scalar', name: 'std::str' };
  const uuid = { kind: 'scalar', name: 'std::uuid' };

  test('a shape: each element with its cardinality; links without a shape are ids', () => {
    expect(
      describe(
        'select Person { name, mood, handle, friends, best: { name } } filter .id = <uuid>$id',
      ),
    ).toEqual({
      input: { kind: 'arguments', arguments: [{ name: 'id', type: uuid, required: true }] },
      output: {
        kind: 'object',
        name: 'default::Person',
        pointers: [
          { name: 'name', cardinality: 'one', type: str },
          {
            name: 'mood',
            cardinality: 'atMostOne',
            type: { kind: 'enum', name: 'default::Mood', values: ['happy', 'sad'] },
          },
          {
            name: 'handle',
            cardinality: 'atMostOne',
            type: { kind: 'scalar', name: 'default::Handle', base: 'std::str' },
          },
          { name: 'friends', cardinality: 'many', type: { kind: 'id', name: 'default::Person' } },
          {
            name: 'best',
            cardinality: 'atMostOne',
            type: {
              kind: 'object',
              name: 'default::Person',
              pointers: [{ name: 'name', cardinality: 'one', type: str }],
            },
          },
        ],
      },
      cardinality: 'atMostOne',
    });
  });

  test('values, collections and optional variables', () => {
    expect(
      describe(
        'select (<optional int64>$n, [<str>$s], (a := 1.5, b := <range<int32>>range(1, 2)))',
      ),
    ).toEqual({
      input: {
        kind: 'arguments',
        arguments: [
          { name: 'n', type: { kind: 'scalar', name: 'std::int64' }, required: false },
          { name: 's', type: str, required: true },
        ],
      },
      output: {
        kind: 'tuple',
        elements: [
          { kind: 'scalar', name: 'std::int64' },
          { kind: 'array', element: str },
          {
            kind: 'namedtuple',
            elements: [
              { name: 'a', type: { kind: 'scalar', name: 'std::float64' } },
              {
                name: 'b',
                type: { kind: 'range', element: { kind: 'scalar', name: 'std::int32' } },
              },
            ],
          },
        ],
      },
      cardinality: 'atMostOne',
    });
  });

  test('an object without a shape is its id; a bare insert its whole stored row', () => {
    expect(describe('select Person limit 1').output).toEqual({
      kind: 'object',
      name: 'default::Person',
      pointers: [{ name: 'id', cardinality: 'one', type: uuid }],
    });
    expect(describe("insert Person { name := 'x' }")).toMatchObject({
      output: {
        kind: 'object',
        name: 'default::Person',
        pointers: [
          { name: 'id', cardinality: 'one', type: uuid },
          { name: 'name', cardinality: 'one', type: str },
          { name: 'mood', cardinality: 'atMostOne' },
          { name: 'handle', cardinality: 'atMostOne' },
          { name: 'friends', cardinality: 'many', type: { kind: 'id', name: 'default::Person' } },
          { name: 'best', cardinality: 'atMostOne', type: { kind: 'id', name: 'default::Person' } },
        ],
      },
      cardinality: 'one',
    });
  });

  test('a free object and a group', () => {
    expect(describe('select { n := count(Person), names := Person.name }').output).toEqual({
      kind: 'object',
      name: 'std::FreeObject',
      pointers: [
        { name: 'n', cardinality: 'one', type: { kind: 'scalar', name: 'std::int64' } },
        { name: 'names', cardinality: 'many', type: str },
      ],
    });
    expect(describe('group Person { name } by .mood')).toMatchObject({
      output: {
        kind: 'object',
        name: 'std::FreeObject',
        pointers: [
          { name: 'key', cardinality: 'one' },
          { name: 'grouping', cardinality: 'many', type: str },
          {
            name: 'elements',
            cardinality: 'many',
            type: {
              kind: 'object',
              name: 'default::Person',
              pointers: [{ name: 'name', cardinality: 'one', type: str }],
            },
          },
        ],
      },
      cardinality: 'many',
    });
  });

  test('what a query that does not compile gives is its error, as running it would', () => {
    expect(() => describe('select Person { nope }')).toThrow("has no link or property 'nope'");
  });
});
