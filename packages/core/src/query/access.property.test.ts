/**
 * Access policies, as a property (spec item 38): no query text, schema or token makes a
 * policy-protected request answer 500, or answer a row the policies deny.
 *
 * - Schemas: a handful of random small ones (2 to 4 object types `T0`..`T3`), each type open or
 *   carrying one of the policy variants of `POLICIES` (an owner policy, `allow select` beside
 *   `allow insert, update, delete`, an `allow all` narrowed by `deny`s, a public read), itself or
 *   through an abstract base `Owned` that some types extend; single and multi links between them
 *   (some `on target delete allow`, some into `Owned`) and computed backlinks.
 * - Data: rows owned by user A, user B and nobody, inserted with the service credential, linked
 *   at random, then read back with the service credential: the model.
 * - Reads: random queries of the statement forms (`select T`, shapes with links, backlinks and
 *   computed backlinks, filters on properties, ids, links and backlinks, `order by`/`offset`/
 *   `limit`, `with`, `for`, `count`, `exists`, `array_agg`, `sum`, `group`, `<json>`,
 *   `detached`, paths through links and backlinks, type intersections of the base, object casts
 *   of ids, splats) run as user A, user B, an anonymous caller, a guest (`isAnonymous: true`),
 *   user A under `defaultAccess: deny` and a token whose subject is no uuid; each answer is
 *   compared with the model filtered in the test by the generated policies (`allows`). The same
 *   query run with the service credential is compared with the unfiltered model, which checks
 *   the oracle itself.
 * - Writes: random insert (with a link to an existing row or to a nested insert, once or in a
 *   `for`), update (properties, the owner, links with `:=`, `+=`, `-=`) and delete forms, on a
 *   type, an intersection, a path or a backlink, bare, in a shape or in a `with`, as a random
 *   caller, in a transaction rolled back afterwards: the rows are then read with the service
 *   credential and must be exactly what the policies allow (only reachable rows updated or
 *   deleted; a refused write refused with 403 AccessPolicyError and nothing written).
 * - Everywhere: any failure is an SvcError below 500 (never the compiler's "could not be
 *   compiled" nor SQL PostgreSQL cannot parse or resolve), and no answer holds the id of a row
 *   the caller may not select.
 *
 * One known gap, outside access policies, is tolerated narrowly (`mayRestrict`): a delete of
 * objects that link to each other through a multi link is refused with ForeignKeyViolationError
 * (nothing deleted) where Gel deletes them all (the junction's target check runs before its rows
 * go with their source). SVC_ACCESS_STRICT=1 tolerates nothing. The bugs the property found in
 * the policies themselves are fixed; the `found by the property` tests below keep them so.
 *
 * Reproducing a failure: fast-check prints the outer seed and path; run again with
 * SVC_ACCESS_SEED=<seed> SVC_ACCESS_PATH=<path> (the queries' seed is part of the schema
 * scenario, so the inner counterexample is found again, shrunk). SVC_ACCESS_RUNS sets the
 * number of schemas (default 4 on PGlite, 6 on PostgreSQL).
 */
import fc from 'fast-check';
import type { Database, Queryable, QueryOptions } from '../db/types';
import { SvcError } from '../errors';
import { buildSchema, createDefaultMigrator } from '../schema';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../testing';
import type { AccessMode } from './api';
import { compileQuery } from './compile';
import {
  createQueryEngine,
  storedSchemaSource,
  type QueryCaller,
  type QueryEngine,
} from './engine';

// ---------------------------------------------------------------------------------------------
// Callers

const USERS = {
  A: '00000000-0000-7000-8000-00000000000a',
  B: '00000000-0000-7000-8000-00000000000b',
  GUEST: '00000000-0000-7000-8000-00000000000c',
} as const;

interface Who {
  readonly label: string;
  readonly caller: QueryCaller;
  /** Policies off: everything allowed. */
  readonly service: boolean;
  /** `global current_user_id` (null: empty). */
  readonly uid: string | null;
  /** `global current_user_is_anonymous`. */
  readonly anon: boolean;
  /** `defaultAccess: 'deny'`: a type without policies is closed. */
  readonly closed: boolean;
  /** A token whose subject is no uuid: its queries may fail with InvalidValueError (400). */
  readonly oddToken?: boolean;
}

const on = (extra: Partial<AccessMode> = {}): AccessMode => ({
  policies: true,
  readOnly: false,
  ...extra,
});
const SERVICE: Who = {
  label: 'the service credential',
  caller: { access: { policies: false, readOnly: false }, auth: { roles: [] } },
  service: true,
  uid: null,
  anon: false,
  closed: false,
};
const CALLERS: readonly Who[] = [
  {
    label: 'user A',
    caller: { access: on(), auth: { userId: USERS.A, email: 'a@example.com', roles: [] } },
    service: false,
    uid: USERS.A,
    anon: false,
    closed: false,
  },
  {
    label: 'user B',
    caller: { access: on(), auth: { userId: USERS.B, email: 'b@example.com', roles: ['editor'] } },
    service: false,
    uid: USERS.B,
    anon: false,
    closed: false,
  },
  {
    label: 'an anonymous caller',
    caller: { access: on(), auth: { roles: [] } },
    service: false,
    uid: null,
    anon: false,
    closed: false,
  },
  {
    label: 'a guest',
    caller: { access: on(), auth: { userId: USERS.GUEST, roles: [], isAnonymous: true } },
    service: false,
    uid: USERS.GUEST,
    anon: true,
    closed: false,
  },
  {
    label: 'user A under defaultAccess: deny',
    caller: { access: on({ defaultAccess: 'deny' }), auth: { userId: USERS.A, roles: [] } },
    service: false,
    uid: USERS.A,
    anon: false,
    closed: true,
  },
];
/** A token no svc issuer mints, for reads: it must not make svc answer 500 either. */
const ODD_TOKEN: Who = {
  label: 'a token whose subject is no uuid',
  caller: {
    access: on(),
    auth: {
      userId: "auth0|x'y",
      email: `o'brien"\\@example.com`,
      roles: ["'; select 1 --", ''],
      isAnonymous: true,
    },
  },
  service: false,
  uid: "auth0|x'y",
  anon: true,
  closed: false,
  oddToken: true,
};

// ---------------------------------------------------------------------------------------------
// Schemas

type Variant = 'open' | 'owner' | 'split' | 'deny' | 'public';
type Kind = 'select' | 'insert' | 'update read' | 'update write' | 'delete';
type OwnerRef = 'A' | 'B' | null;

/** Each variant's SDL, and `allows` below says the same in TypeScript: keep them together. */
const POLICIES: Record<Variant, readonly string[]> = {
  open: [],
  owner: ['access policy own allow all using (.owner ?= global current_user_id);'],
  split: [
    'access policy read allow select using (.owner ?= global current_user_id or not exists .owner);',
    'access policy write allow insert, update, delete using (.owner ?= global current_user_id);',
  ],
  deny: [
    'access policy everyone allow all;',
    'access policy others deny select, update, delete using (exists .owner and .owner ?!= global current_user_id);',
    "access policy guests deny insert using (global current_user_is_anonymous) { errmessage := 'no guests'; };",
  ],
  public: [
    'access policy read allow select;',
    'access policy mine allow insert using (.owner ?= global current_user_id);',
  ],
};

/** What `variant` allows `who` to do (`kind`) to a row whose owner is `owner`. */
function variantAllows(variant: Variant, who: Who, kind: Kind, owner: string | null): boolean {
  if (who.service) return true;
  const mine = owner === who.uid; // `.owner ?= global current_user_id`: {} ?= {} holds
  switch (variant) {
    case 'open':
      return !who.closed;
    case 'owner':
      return mine;
    case 'split':
      return kind === 'select' ? mine || owner === null : mine;
    case 'deny':
      return kind === 'insert' ? !who.anon : !(owner !== null && owner !== who.uid);
    case 'public':
      return kind === 'select' ? true : kind === 'insert' ? mine : false;
  }
}

interface LinkSpec {
  readonly name: string;
  /** The concrete type declaring it. */
  readonly source: string;
  /** A concrete type or `Owned`. */
  readonly target: string;
  readonly multi: boolean;
  readonly allowDelete: boolean;
}

/** `name := .<link[is source]`, declared on the link's (concrete) target. */
interface BackSpec {
  readonly name: string;
  readonly link: LinkSpec;
}

interface TypeSpec {
  readonly name: string;
  readonly extendsBase: boolean;
  /** Its own policies (when it does not extend `Owned`). */
  readonly variant: Variant;
  readonly links: readonly LinkSpec[];
  readonly backs: readonly BackSpec[];
  /** The seeded rows' owners. */
  readonly owners: readonly OwnerRef[];
}

interface Scenario {
  /** `Owned`'s policies, or null for no base type. */
  readonly base: Variant | null;
  readonly types: readonly TypeSpec[];
  readonly dataSeed: number;
  readonly querySeed: number;
}

const variantArb = fc.constantFrom<Variant>('open', 'owner', 'split', 'deny', 'public');

const scenarioArb: fc.Arbitrary<Scenario> = fc.integer({ min: 2, max: 4 }).chain((n) =>
  fc
    .record({
      base: fc.oneof(
        fc.constant(null),
        fc.constantFrom<Variant>('owner', 'split', 'deny', 'public'),
      ),
      kinds: fc.array(fc.record({ extendsBase: fc.boolean(), variant: variantArb }), {
        minLength: n,
        maxLength: n,
      }),
      links: fc.array(
        fc.record({
          from: fc.nat(n - 1),
          to: fc.nat(n), // n: `Owned`
          multi: fc.boolean(),
          allowDelete: fc.boolean(),
          back: fc.boolean(),
        }),
        { maxLength: 6 },
      ),
      owners: fc.array(
        fc.array(fc.constantFrom<OwnerRef>('A', 'B', null), { minLength: 2, maxLength: 5 }),
        { minLength: n, maxLength: n },
      ),
      dataSeed: fc.integer(),
      querySeed: fc.integer(),
    })
    .map((raw): Scenario => {
      const names = raw.kinds.map((_, i) => `T${i}`);
      const extendsBase = raw.kinds.map((k) => raw.base !== null && k.extendsBase);
      if (raw.base !== null && !extendsBase.some(Boolean)) extendsBase[n - 1] = true;
      const variants: Variant[] = raw.kinds.map((k) => k.variant);
      // Some type is protected in every schema.
      if (raw.base === null && !variants.some((v) => v !== 'open')) variants[0] = 'owner';
      const links: LinkSpec[][] = names.map(() => []);
      const backs: BackSpec[][] = names.map(() => []);
      for (const l of raw.links) {
        const source = names[l.from] as string;
        const target = l.to === n ? (raw.base === null ? 'T0' : 'Owned') : (names[l.to] as string);
        const own = links[l.from] as LinkSpec[];
        const stem = `${l.multi ? 'many' : 'one'}_${target}`;
        const name = own.some((x) => x.name === stem) ? `${stem}_${own.length}` : stem;
        const link: LinkSpec = {
          name,
          source,
          target,
          multi: l.multi,
          allowDelete: l.allowDelete,
        };
        own.push(link);
        if (l.back && target !== 'Owned') {
          backs[names.indexOf(target)]?.push({ name: `from_${source}_${name}`, link });
        }
      }
      return {
        base: raw.base,
        types: names.map((name, i) => ({
          name,
          extendsBase: extendsBase[i] as boolean,
          variant: variants[i] as Variant,
          links: links[i] as LinkSpec[],
          backs: backs[i] as BackSpec[],
          owners: raw.owners[i] as OwnerRef[],
        })),
        dataSeed: raw.dataSeed,
        querySeed: raw.querySeed,
      };
    }),
);

function sdlOf(sc: Scenario): string {
  const lines: string[] = [];
  const props = ['  owner: uuid;', '  name: str;', '  rank: int64;'];
  const policies = (v: Variant) => POLICIES[v].map((p) => `  ${p}`);
  if (sc.base !== null) {
    lines.push('abstract type Owned {', ...props, ...policies(sc.base), '}');
  }
  for (const t of sc.types) {
    lines.push(`type ${t.name}${t.extendsBase ? ' extending Owned' : ''} {`);
    if (!t.extendsBase) lines.push(...props, ...policies(t.variant));
    for (const l of t.links) {
      const onDelete = l.allowDelete ? ' { on target delete allow; }' : '';
      lines.push(`  ${l.multi ? 'multi ' : ''}${l.name}: ${l.target}${onDelete};`);
    }
    for (const b of t.backs) lines.push(`  ${b.name} := .<${b.link.name}[is ${b.link.source}];`);
    lines.push('}');
  }
  return lines.join('\n');
}

const typeSpec = (sc: Scenario, name: string): TypeSpec | undefined =>
  sc.types.find((t) => t.name === name);
/** The concrete types a (static) type name stands for. */
const concreteOf = (sc: Scenario, type: string): string[] =>
  type === 'Owned' ? sc.types.filter((t) => t.extendsBase).map((t) => t.name) : [type];
const linksOf = (sc: Scenario, type: string): readonly LinkSpec[] =>
  typeSpec(sc, type)?.links ?? [];
const backsOf = (sc: Scenario, type: string): readonly BackSpec[] =>
  typeSpec(sc, type)?.backs ?? [];
const allLinks = (sc: Scenario): LinkSpec[] => sc.types.flatMap((t) => t.links);
/** Links whose declared target is `type` (a backlink `.<link[is source]` from it). */
const incoming = (sc: Scenario, type: string): LinkSpec[] =>
  allLinks(sc).filter((l) => l.target === type);

function allows(sc: Scenario, who: Who, type: string, kind: Kind, owner: string | null) {
  const t = typeSpec(sc, type);
  const variant = t?.extendsBase ? (sc.base as Variant) : (t?.variant ?? 'open');
  return variantAllows(variant, who, kind, owner);
}

// ---------------------------------------------------------------------------------------------
// The model: every row, read with the service credential

interface Row {
  readonly id: string;
  readonly type: string;
  readonly owner: string | null;
  readonly name: string;
  readonly rank: number;
  /** Link name → target ids, sorted. */
  readonly links: Readonly<Record<string, readonly string[]>>;
}

interface Model {
  readonly rows: readonly Row[];
  readonly byId: ReadonlyMap<string, Row>;
}

const modelOf = (rows: readonly Row[]): Model => ({
  rows,
  byId: new Map(rows.map((r) => [r.id, r])),
});

/** A small deterministic generator for the seeded links (from the scenario's `dataSeed`). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuidLit = (id: string) => `<uuid>'${id}'`;

// ---------------------------------------------------------------------------------------------
// Queries

type Cond =
  | { readonly k: 'rank'; readonly op: '>' | '<'; readonly n: number }
  | { readonly k: 'mine' }
  | { readonly k: 'unowned' }
  | { readonly k: 'name'; readonly name: string }
  | { readonly k: 'id'; readonly id: string }
  | { readonly k: 'exists'; readonly link: LinkSpec }
  | { readonly k: 'some'; readonly link: LinkSpec; readonly n: number }
  | { readonly k: 'linkId'; readonly link: LinkSpec; readonly id: string }
  | { readonly k: 'back'; readonly link: LinkSpec };

/** A set of objects. Its static type: `staticOf`. */
type Src =
  | { readonly k: 'type'; readonly type: string }
  | { readonly k: 'is'; readonly type: string }
  | { readonly k: 'path'; readonly link: LinkSpec }
  | { readonly k: 'back'; readonly link: LinkSpec }
  | { readonly k: 'filter'; readonly src: Src; readonly cond: Cond };

interface Clause {
  readonly cond: Cond | null;
  readonly order: 'asc' | 'desc' | null;
  readonly offset: number | null;
  readonly limit: number | null;
}
const NO_CLAUSE: Clause = { cond: null, order: null, offset: null, limit: null };

type Field =
  | { readonly k: 'link'; readonly link: LinkSpec; readonly shape: Shape; readonly clause: Clause }
  | { readonly k: 'ref'; readonly link: LinkSpec }
  | { readonly k: 'computed'; readonly back: BackSpec; readonly shape: Shape }
  | {
      readonly k: 'back';
      readonly alias: string;
      readonly link: LinkSpec;
      readonly shape: Shape;
      readonly clause: Clause;
    };
/** Besides `id` and `name`, which every shape has. */
type Shape = readonly Field[];

type Read =
  | {
      readonly k: 'select' | 'with';
      readonly src: Src;
      readonly shape: Shape;
      readonly clause: Clause;
    }
  | {
      readonly k: 'detached';
      readonly type: string;
      readonly shape: Shape;
      readonly clause: Clause;
    }
  | { readonly k: 'for' | 'json'; readonly src: Src; readonly shape: Shape }
  | {
      readonly k: 'bare' | 'jsonBare' | 'splat' | 'count' | 'exists' | 'names' | 'sum' | 'group';
      readonly src: Src;
    }
  | { readonly k: 'cast'; readonly type: string; readonly id: string };

type OwnerValue = 'A' | 'B' | 'none' | 'self';
type SetOp =
  | { readonly k: 'rank' }
  | { readonly k: 'owner'; readonly owner: OwnerValue }
  | {
      readonly k: 'link';
      readonly link: LinkSpec;
      readonly op: ':=' | '+=' | '-=';
      readonly target: string | null;
    };
type Wrap = 'bare' | 'select' | 'with';
type Write =
  | {
      readonly k: 'update';
      readonly subject: Src;
      readonly set: readonly SetOp[];
      readonly wrap: Wrap;
    }
  | { readonly k: 'delete'; readonly subject: Src; readonly wrap: Wrap }
  | {
      readonly k: 'insert';
      readonly type: string;
      readonly owner: OwnerValue;
      /** A link to an existing row (`target`), or to a row inserted with it (`nested`). */
      readonly link:
        | { readonly link: LinkSpec; readonly target: string }
        | { readonly link: LinkSpec; readonly nested: OwnerValue }
        | null;
      readonly twice: boolean;
      readonly wrap: Wrap;
    };

function staticOf(s: Src): string {
  switch (s.k) {
    case 'type':
    case 'is':
      return s.type;
    case 'path':
      return s.link.target;
    case 'back':
      return s.link.source;
    case 'filter':
      return staticOf(s.src);
  }
}

function printCond(c: Cond): string {
  switch (c.k) {
    case 'rank':
      return `.rank ${c.op} ${c.n}`;
    case 'mine':
      return '.owner ?= global current_user_id';
    case 'unowned':
      return 'not exists .owner';
    case 'name':
      return `.name = '${c.name}'`;
    case 'id':
      return `.id = ${uuidLit(c.id)}`;
    case 'exists':
      return `exists .${c.link.name}`;
    case 'some':
      return `exists (select .${c.link.name} filter .rank > ${c.n})`;
    case 'linkId':
      return c.link.multi
        ? `${uuidLit(c.id)} in .${c.link.name}.id`
        : `.${c.link.name}.id = ${uuidLit(c.id)}`;
    case 'back':
      return `exists .<${c.link.name}[is ${c.link.source}]`;
  }
}

function printSrc(s: Src): string {
  switch (s.k) {
    case 'type':
      return s.type;
    case 'is':
      return `Owned[is ${s.type}]`;
    case 'path':
      return `${s.link.source}.${s.link.name}`;
    case 'back':
      return `${s.link.target}.<${s.link.name}[is ${s.link.source}]`;
    case 'filter':
      return `(select ${printSrc(s.src)} filter ${printCond(s.cond)})`;
  }
}

function printClause(c: Clause): string {
  return [
    c.cond ? ` filter ${printCond(c.cond)}` : '',
    c.order ? ` order by .rank ${c.order}` : '',
    c.offset !== null ? ` offset ${c.offset}` : '',
    c.limit !== null ? ` limit ${c.limit}` : '',
  ].join('');
}

const fieldName = (f: Field): string =>
  f.k === 'computed' ? f.back.name : f.k === 'back' ? f.alias : f.link.name;

function printField(f: Field): string {
  switch (f.k) {
    case 'link':
      return `${f.link.name}: ${printShape(f.shape)}${printClause(f.clause)}`;
    case 'ref':
      return f.link.name;
    case 'computed':
      return `${f.back.name}: ${printShape(f.shape)}`;
    case 'back':
      return `${f.alias} := (select .<${f.link.name}[is ${f.link.source}] ${printShape(f.shape)}${printClause(f.clause)})`;
  }
}

function printShape(shape: Shape): string {
  return `{ ${['id', 'name', ...shape.map(printField)].join(', ')} }`;
}

function printRead(q: Read): string {
  switch (q.k) {
    case 'select':
      return `select ${printSrc(q.src)} ${printShape(q.shape)}${printClause(q.clause)}`;
    case 'with':
      return `with x := (${printSrc(q.src)}) select x ${printShape(q.shape)}${printClause(q.clause)}`;
    case 'detached':
      return `select detached ${q.type} ${printShape(q.shape)}${printClause(q.clause)}`;
    case 'for':
      return `for x in (${printSrc(q.src)}) union (select x ${printShape(q.shape)})`;
    case 'json':
      return `select <json>(select ${printSrc(q.src)} ${printShape(q.shape)})`;
    case 'bare':
      return `select ${printSrc(q.src)}`;
    case 'jsonBare':
      return `select <json>(${printSrc(q.src)})`;
    case 'splat':
      return `select ${printSrc(q.src)} { ** }`;
    case 'count':
      return `select count(${printSrc(q.src)})`;
    case 'exists':
      return `select exists (${printSrc(q.src)})`;
    case 'names':
      return `select array_agg((select ${printSrc(q.src)}).name)`;
    case 'sum':
      return `select sum((select ${printSrc(q.src)}).rank)`;
    case 'group':
      return `select (group (select ${printSrc(q.src)}) by .owner) { k := .key.owner, ids := .elements.id }`;
    case 'cast':
      return `select (<${q.type}>${uuidLit(q.id)}) { id, name }`;
  }
}

function printOwner(o: OwnerValue): string {
  switch (o) {
    case 'A':
    case 'B':
      return uuidLit(USERS[o]);
    case 'none':
      return '{}';
    case 'self':
      return 'global current_user_id';
  }
}

/** An object of `type` by id, read as the caller reads it (`detached`: not the subject). */
const objectById = (type: string, id: string) =>
  `(select detached ${type} filter .id = ${uuidLit(id)})`;

function printSet(op: SetOp): string {
  switch (op.k) {
    case 'rank':
      return 'rank := .rank + 1000';
    case 'owner':
      return `owner := ${printOwner(op.owner)}`;
    case 'link':
      return `${op.link.name} ${op.op} ${op.target === null ? '{}' : objectById(op.link.target, op.target)}`;
  }
}

function printSubject(s: Src): string {
  return s.k === 'filter' ? `${printSrc(s.src)} filter ${printCond(s.cond)}` : printSrc(s);
}

function printWrite(w: Write): string {
  let text: string;
  switch (w.k) {
    case 'update':
      text = `update ${printSubject(w.subject)} set { ${w.set.map(printSet).join(', ')} }`;
      break;
    case 'delete':
      text = `delete ${printSubject(w.subject)}`;
      break;
    case 'insert': {
      const owner = w.owner === 'none' ? '' : `, owner := ${printOwner(w.owner)}`;
      const l = w.link;
      const value =
        l === null
          ? ''
          : 'target' in l
            ? objectById(l.link.target, l.target)
            : `(insert ${l.link.target} { name := 'nested', rank := 2000${l.nested === 'none' ? '' : `, owner := ${printOwner(l.nested)}`} })`;
      const link = l === null ? '' : `, ${l.link.name} := ${value}`;
      text = w.twice
        ? `for i in {1, 2} union (insert ${w.type} { name := 'new' ++ <str>i, rank := 1000 + i${owner}${link} })`
        : `insert ${w.type} { name := 'new', rank := 1000${owner}${link} }`;
      break;
    }
  }
  switch (w.wrap) {
    case 'bare':
      return text;
    case 'select':
      return `select (${text}) { id }`;
    case 'with':
      return `with w := (${text}) select w { id }`;
  }
}

/** A generated value that fast-check prints as its query text. */
interface Printed<T> {
  readonly value: T;
  readonly text: string;
}
function printed<T>(value: T, text: string): Printed<T> {
  return { value, text, [fc.toStringMethod]: () => JSON.stringify(text) } as Printed<T>;
}

/**
 * `shape` without clauses on the links `cond` reads: whether a clause on a select's own filter
 * sees a link as its shape narrows it (`many: {...} limit 1`) is not what this test is about.
 */
function fit(shape: Shape, cond: Cond | null): Shape {
  if (cond === null || (cond.k !== 'exists' && cond.k !== 'some' && cond.k !== 'linkId')) {
    return shape;
  }
  const name = cond.link.name;
  return shape.map((f) =>
    f.k === 'link' && f.link.name === name ? { ...f, clause: NO_CLAUSE } : f,
  );
}

/** The statement forms over one scenario and its rows. */
function arbitraries(sc: Scenario, model: Model) {
  const statics = [...sc.types.map((t) => t.name), ...(sc.base === null ? [] : ['Owned'])];
  const based = sc.types.filter((t) => t.extendsBase).map((t) => t.name);
  const links = allLinks(sc);
  const maxRank = Math.max(...model.rows.map((r) => r.rank));
  const rank = fc.integer({ min: 0, max: maxRank + 1 });
  const ids = model.rows.map((r) => r.id);
  const rowsOf = (type: string) =>
    model.rows.filter((r) => concreteOf(sc, type).includes(r.type)).map((r) => r.id);

  const conds = new Map<string, fc.Arbitrary<Cond>>();
  const cond = (st: string): fc.Arbitrary<Cond> => {
    let arb = conds.get(st);
    if (arb) return arb;
    const options: fc.Arbitrary<Cond>[] = [
      fc.record({ k: fc.constant('rank' as const), op: fc.constantFrom('>', '<'), n: rank }),
      fc.constant({ k: 'mine' as const }),
      fc.constant({ k: 'unowned' as const }),
      fc
        .constantFrom(...model.rows.map((r) => r.name))
        .map((name) => ({ k: 'name' as const, name })),
      fc.constantFrom(...ids).map((id) => ({ k: 'id' as const, id })),
    ];
    const own = linksOf(sc, st);
    if (own.length) {
      options.push(
        fc.constantFrom(...own).map((link) => ({ k: 'exists' as const, link })),
        fc
          .tuple(fc.constantFrom(...own), rank)
          .map(([link, n]) => ({ k: 'some' as const, link, n })),
        fc
          .constantFrom(...own)
          .chain((link) =>
            fc
              .constantFrom(...rowsOf(link.target))
              .map((id) => ({ k: 'linkId' as const, link, id })),
          ),
      );
    }
    const into = incoming(sc, st);
    if (into.length)
      options.push(fc.constantFrom(...into).map((link) => ({ k: 'back' as const, link })));
    arb = fc.oneof(...options);
    conds.set(st, arb);
    return arb;
  };

  const clause = (st: string): fc.Arbitrary<Clause> =>
    fc
      .record({
        cond: fc.option(cond(st), { nil: null, freq: 2 }),
        order: fc.option(fc.constantFrom('asc', 'desc'), { nil: null, freq: 2 }),
        offset: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
        limit: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
      })
      // Without an order, offset and limit pick any rows: only ordered ones are generated.
      .map((c): Clause => (c.order === null ? { ...c, offset: null, limit: null } : c));

  const shapes = new Map<string, fc.Arbitrary<Shape>>();
  const shape = (st: string, depth: number): fc.Arbitrary<Shape> => {
    const key = `${st}/${depth}`;
    let arb = shapes.get(key);
    if (arb) return arb;
    const fields: fc.Arbitrary<Field>[] = [];
    if (depth < 2) {
      for (const link of linksOf(sc, st)) {
        fields.push(
          fc
            .tuple(
              shape(link.target, depth + 1),
              link.multi ? clause(link.target) : fc.constant(NO_CLAUSE),
            )
            .map(([s, c]) => ({ k: 'link' as const, link, shape: fit(s, c.cond), clause: c })),
          fc.constant({ k: 'ref' as const, link }),
        );
      }
      for (const back of backsOf(sc, st)) {
        fields.push(
          shape(back.link.source, depth + 1).map((s) => ({
            k: 'computed' as const,
            back,
            shape: s,
          })),
        );
      }
      for (const link of incoming(sc, st)) {
        fields.push(
          fc.tuple(shape(link.source, depth + 1), clause(link.source)).map(([s, c]) => ({
            k: 'back' as const,
            alias: `b_${link.source}_${link.name}`,
            link,
            shape: fit(s, c.cond),
            clause: c,
          })),
        );
      }
    }
    arb = fields.length
      ? fc
          .array(fc.oneof(...fields), { maxLength: 3 - depth })
          .map((fs) =>
            fs.filter((f, i) => fs.findIndex((g) => fieldName(g) === fieldName(f)) === i),
          )
      : fc.constant([]);
    shapes.set(key, arb);
    return arb;
  };

  const bases: fc.Arbitrary<Src>[] = [
    fc.constantFrom(...statics).map((type) => ({ k: 'type' as const, type })),
  ];
  if (based.length)
    bases.push(fc.constantFrom(...based).map((type) => ({ k: 'is' as const, type })));
  if (links.length) {
    bases.push(
      fc.constantFrom(...links).map((link) => ({ k: 'path' as const, link })),
      fc.constantFrom(...links).map((link) => ({ k: 'back' as const, link })),
    );
  }
  const base = fc.oneof(...bases);
  const src: fc.Arbitrary<Src> = fc.oneof(
    { arbitrary: base, weight: 2 },
    {
      arbitrary: base.chain((s) =>
        cond(staticOf(s)).map((c): Src => ({ k: 'filter', src: s, cond: c })),
      ),
      weight: 1,
    },
  );
  const withShape = <K extends 'select' | 'with'>(k: K) =>
    src.chain((s) =>
      fc
        .tuple(shape(staticOf(s), 0), clause(staticOf(s)))
        .map(([sh, c]): Read => ({ k, src: s, shape: fit(sh, c.cond), clause: c })),
    );
  const read: fc.Arbitrary<Read> = fc.oneof(
    { arbitrary: withShape('select'), weight: 6 },
    { arbitrary: withShape('with'), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(...statics)
        .chain((type) =>
          fc
            .tuple(shape(type, 0), clause(type))
            .map(([sh, c]): Read => ({ k: 'detached', type, shape: fit(sh, c.cond), clause: c })),
        ),
      weight: 1,
    },
    ...(['for', 'json'] as const).map((k) => ({
      arbitrary: src.chain((s) =>
        shape(staticOf(s), 0).map((sh): Read => ({ k, src: s, shape: sh })),
      ),
      weight: 1,
    })),
    ...(['bare', 'jsonBare', 'splat', 'count', 'exists', 'names', 'sum', 'group'] as const).map(
      (k) => ({ arbitrary: src.map((s): Read => ({ k, src: s })), weight: 1 }),
    ),
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...statics), fc.constantFrom(...ids))
        .map(([type, id]): Read => ({ k: 'cast', type, id })),
      weight: 1,
    },
  );

  // Writes.
  const subjectBases: fc.Arbitrary<Src>[] = [
    fc.constantFrom(...statics).map((type) => ({ k: 'type' as const, type })),
  ];
  if (based.length) {
    subjectBases.push(fc.constantFrom(...based).map((type) => ({ k: 'is' as const, type })));
  }
  if (links.length) {
    subjectBases.push(
      fc.constantFrom(...links).map((link) => ({ k: 'path' as const, link })),
      fc.constantFrom(...links).map((link) => ({ k: 'back' as const, link })),
    );
  }
  const subjectBase = fc.oneof(...subjectBases);
  const subject: fc.Arbitrary<Src> = fc.oneof(
    subjectBase,
    subjectBase.chain((s) => cond(staticOf(s)).map((c): Src => ({ k: 'filter', src: s, cond: c }))),
  );
  const ownerValue = fc.constantFrom<OwnerValue>('A', 'B', 'none', 'self');
  const setOp = (st: string): fc.Arbitrary<SetOp> => {
    const options: fc.Arbitrary<SetOp>[] = [
      fc.constant({ k: 'rank' as const }),
      ownerValue.map((owner) => ({ k: 'owner' as const, owner })),
    ];
    for (const link of linksOf(sc, st)) {
      const targets = rowsOf(link.target);
      options.push(
        fc
          .tuple(
            link.multi
              ? fc.constantFrom<':=' | '+=' | '-='>(':=', '+=', '-=')
              : fc.constant(':=' as const),
            fc.option(fc.constantFrom(...targets), { nil: null, freq: 4 }),
          )
          .map(([op, target]) => ({
            k: 'link' as const,
            link,
            op,
            target: op === ':=' ? target : (target ?? (targets[0] as string)),
          })),
      );
    }
    return fc.oneof(...options);
  };
  const setKey = (op: SetOp) => (op.k === 'link' ? op.link.name : op.k);
  const wrap = fc.constantFrom<Wrap>('bare', 'select', 'with');
  const concrete = sc.types.map((t) => t.name);
  const write: fc.Arbitrary<Write> = fc.oneof(
    {
      arbitrary: subject.chain((s) =>
        fc.tuple(fc.array(setOp(staticOf(s)), { minLength: 1, maxLength: 2 }), wrap).map(
          ([ops, w]): Write => ({
            k: 'update',
            subject: s,
            set: ops.filter((op, i) => ops.findIndex((o) => setKey(o) === setKey(op)) === i),
            wrap: w,
          }),
        ),
      ),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(subject, wrap)
        .map(([s, w]): Write => ({ k: 'delete', subject: s, wrap: w })),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom(...concrete).chain((type) => {
        const own = linksOf(sc, type);
        const nestable = own.filter((l) => l.target !== 'Owned');
        const links: fc.Arbitrary<Extract<Write, { k: 'insert' }>['link']>[] = [fc.constant(null)];
        if (own.length) {
          links.push(
            fc
              .constantFrom(...own)
              .chain((l) =>
                fc.constantFrom(...rowsOf(l.target)).map((target) => ({ link: l, target })),
              ),
          );
        }
        if (nestable.length) {
          links.push(
            fc
              .tuple(fc.constantFrom(...nestable), ownerValue)
              .map(([l, nested]) => ({ link: l, nested })),
          );
        }
        const link = fc.oneof(...links);
        return fc.tuple(ownerValue, link, fc.boolean(), wrap).map(
          ([owner, l, twice, w]): Write => ({
            k: 'insert',
            type,
            owner,
            link: l,
            twice,
            wrap: w,
          }),
        );
      }),
      weight: 2,
    },
  );

  // Writes as user A mostly (the issue's), and as every other caller.
  const who = fc.oneof(
    { arbitrary: fc.constant(CALLERS[0] as Who), weight: 4 },
    { arbitrary: fc.constantFrom(SERVICE, ...CALLERS.slice(1)), weight: 3 },
  );
  return {
    read: read.map((q) => printed(q, printRead(q))),
    write: fc.tuple(
      write.map((w) => printed(w, printWrite(w))),
      who,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// The oracle: the model, filtered by the policies for one caller

const byJson = (a: unknown, b: unknown) => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
const sortedJson = <T>(values: readonly T[]): T[] => [...values].sort(byJson);
const distinct = (rows: readonly Row[]): Row[] => [...new Map(rows.map((r) => [r.id, r])).values()];

class Oracle {
  constructor(
    readonly sc: Scenario,
    readonly model: Model,
    readonly who: Who,
  ) {}

  allows(row: Pick<Row, 'type' | 'owner'>, kind: Kind): boolean {
    return allows(this.sc, this.who, row.type, kind, row.owner);
  }

  visible(row: Row): boolean {
    return this.allows(row, 'select');
  }

  rowsOf(type: string): Row[] {
    const types = concreteOf(this.sc, type);
    return this.model.rows.filter((r) => types.includes(r.type) && this.visible(r));
  }

  targets(row: Row, link: string): Row[] {
    return (row.links[link] ?? [])
      .map((id) => this.model.byId.get(id))
      .filter((r): r is Row => r !== undefined && this.visible(r));
  }

  backs(row: Row, link: LinkSpec): Row[] {
    return this.rowsOf(link.source).filter((s) => (s.links[link.name] ?? []).includes(row.id));
  }

  src(s: Src): Row[] {
    switch (s.k) {
      case 'type':
      case 'is':
        return this.rowsOf(s.type);
      case 'path':
        return distinct(this.rowsOf(s.link.source).flatMap((r) => this.targets(r, s.link.name)));
      case 'back':
        return this.rowsOf(s.link.source).filter((r) => this.targets(r, s.link.name).length > 0);
      case 'filter':
        return this.src(s.src).filter((r) => this.cond(s.cond, r));
    }
  }

  cond(c: Cond, r: Row): boolean {
    switch (c.k) {
      case 'rank':
        return c.op === '>' ? r.rank > c.n : r.rank < c.n;
      case 'mine':
        return r.owner === this.who.uid;
      case 'unowned':
        return r.owner === null;
      case 'name':
        return r.name === c.name;
      case 'id':
        return r.id === c.id;
      case 'exists':
        return this.targets(r, c.link.name).length > 0;
      case 'some':
        return this.targets(r, c.link.name).some((t) => t.rank > c.n);
      case 'linkId':
        return this.targets(r, c.link.name).some((t) => t.id === c.id);
      case 'back':
        return this.backs(r, c.link).length > 0;
    }
  }

  clause(rows: readonly Row[], c: Clause): Row[] {
    const cond = c.cond;
    let out = cond ? rows.filter((r) => this.cond(cond, r)) : [...rows];
    if (c.order) {
      out.sort((a, b) => (c.order === 'asc' ? a.rank - b.rank : b.rank - a.rank));
      const from = c.offset ?? 0;
      out = out.slice(from, c.limit === null ? undefined : from + c.limit);
    }
    return out;
  }

  object(r: Row, shape: Shape): Record<string, unknown> {
    const out: Record<string, unknown> = { id: r.id, name: r.name };
    for (const f of shape) out[fieldName(f)] = this.field(r, f);
    return out;
  }

  list(rows: readonly Row[], shape: Shape, ordered: boolean): unknown[] {
    const objects = rows.map((r) => this.object(r, shape));
    return ordered ? objects : sortedJson(objects);
  }

  field(r: Row, f: Field): unknown {
    switch (f.k) {
      case 'link': {
        const targets = this.targets(r, f.link.name);
        if (!f.link.multi) return targets[0] ? this.object(targets[0], f.shape) : null;
        return this.list(this.clause(targets, f.clause), f.shape, f.clause.order !== null);
      }
      case 'ref': {
        const targets = this.targets(r, f.link.name).map((t) => t.id);
        return f.link.multi ? targets.sort() : (targets[0] ?? null);
      }
      case 'computed':
        return this.list(this.backs(r, f.back.link), f.shape, false);
      case 'back':
        return this.list(
          this.clause(this.backs(r, f.link), f.clause),
          f.shape,
          f.clause.order !== null,
        );
    }
  }

  /** The answer `q` must give: its result (canonical, see `canonRead`) or the error's type. */
  read(q: Read): { value: unknown } | { error: string } {
    switch (q.k) {
      case 'select':
      case 'with':
        return {
          value: this.list(
            this.clause(this.src(q.src), q.clause),
            q.shape,
            q.clause.order !== null,
          ),
        };
      case 'detached':
        return {
          value: this.list(
            this.clause(this.rowsOf(q.type), q.clause),
            q.shape,
            q.clause.order !== null,
          ),
        };
      case 'for':
      case 'json':
        return { value: this.list(this.src(q.src), q.shape, false) };
      case 'bare':
      case 'jsonBare':
      case 'splat':
        return {
          value: this.src(q.src)
            .map((r) => r.id)
            .sort(),
        };
      case 'count':
        return { value: [this.src(q.src).length] };
      case 'exists':
        return { value: [this.src(q.src).length > 0] };
      case 'names':
        return {
          value: [
            this.src(q.src)
              .map((r) => r.name)
              .sort(),
          ],
        };
      case 'sum':
        return { value: [this.src(q.src).reduce((n, r) => n + r.rank, 0)] };
      case 'group': {
        const groups = new Map<string | null, string[]>();
        for (const r of this.src(q.src))
          groups.set(r.owner, [...(groups.get(r.owner) ?? []), r.id]);
        return { value: sortedJson([...groups].map(([k, ids]) => ({ k, ids: ids.sort() }))) };
      }
      case 'cast': {
        const row = this.model.byId.get(q.id);
        const found = row && concreteOf(this.sc, q.type).includes(row.type) && this.visible(row);
        return found
          ? { value: [{ id: row.id, name: row.name }] }
          : { error: 'CardinalityViolationError' };
      }
    }
  }
}

/** An answer in the oracle's canonical form (sets sorted, a single link as an object or null). */
function canonRead(q: Read, result: unknown[]): unknown {
  switch (q.k) {
    case 'select':
    case 'with':
    case 'detached':
      return canonList(result, q.shape, q.clause.order !== null);
    case 'for':
    case 'json':
      return canonList(result, q.shape, false);
    case 'bare':
    case 'jsonBare':
    case 'splat':
      return result.map((x) => (x as { id?: unknown } | null)?.id).sort();
    case 'names':
      return result.map((x) => (Array.isArray(x) ? [...x].sort() : x));
    case 'group':
      return sortedJson(
        result.map((g) => {
          const { k, ids } = g as { k: unknown; ids: unknown };
          return { k, ids: Array.isArray(ids) ? [...ids].sort() : ids };
        }),
      );
    case 'cast':
      return canonList(result, [], true);
    default:
      return result;
  }
}

function canonList(values: unknown, shape: Shape, ordered: boolean): unknown {
  // A computed with `limit 0` or `limit 1` is at most one object: null or the object.
  const list =
    values === null ? [] : typeof values === 'object' && !Array.isArray(values) ? [values] : values;
  if (!Array.isArray(list)) return values;
  const objects = list.map((v) => canonObject(v, shape));
  return ordered ? objects : sortedJson(objects);
}

function canonObject(v: unknown, shape: Shape): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = { id: o.id, name: o.name };
  for (const f of shape) {
    const x = o[fieldName(f)];
    switch (f.k) {
      case 'link':
        if (f.link.multi) {
          out[fieldName(f)] = canonList(x, f.shape, f.clause.order !== null);
        } else {
          // svc answers a single link's shape as `[object]` or null; Gel as an object or null.
          const one = Array.isArray(x) && x.length <= 1 ? (x[0] ?? null) : x;
          out[fieldName(f)] = one === null || one === undefined ? null : canonObject(one, f.shape);
        }
        break;
      case 'ref':
        out[fieldName(f)] = f.link.multi && Array.isArray(x) ? [...x].sort() : (x ?? null);
        break;
      case 'computed':
        out[fieldName(f)] = canonList(x, f.shape, false);
        break;
      case 'back':
        out[fieldName(f)] = canonList(x, f.shape, f.clause.order !== null);
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The database, the engine, and running a query

class Rollback extends Error {}

let tdb: TestDatabase;
let engine: QueryEngine;
const migrator = createDefaultMigrator();
/** The transaction a write runs in (rolled back after it); null: the database itself. */
let openTx: Queryable | null = null;

/** The database, whose queries go to `openTx` while one is open (the engine is built once). */
function routed(db: Database): Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'query') {
        return (text: string, params?: readonly unknown[], options?: QueryOptions) =>
          (openTx ?? target).query(text, params, options);
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type Outcome = { ok: true; value: unknown[]; text: string } | { ok: false; error: SvcError };

/**
 * Runs `query` as `who`. Any failure must be an SvcError below 500 that is not a compiler
 * failure in disguise ("could not be compiled", SQL PostgreSQL could not parse or resolve).
 */
async function attempt(who: Who, query: string): Promise<Outcome> {
  try {
    const text = await engine.run({ query }, who.caller);
    return { ok: true, value: JSON.parse(text) as unknown[], text };
  } catch (err) {
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = cause
      ? ` (cause: ${String(cause.code ?? '')} ${String(cause.message ?? '')})`
      : '';
    if (!(err instanceof SvcError)) {
      throw new Error(`${who.label}: \`${query}\` threw ${String(err)}`);
    }
    if (err.status >= 500) {
      throw new Error(
        `${who.label}: \`${query}\` answered ${err.status} ${err.code}: ${err.message}${detail}`,
      );
    }
    if (
      /could not be compiled/.test(err.message) ||
      /^42(601|P01|703|702|803|P10)$/.test(String(cause?.code))
    ) {
      throw new Error(`${who.label}: \`${query}\` is a compiler failure: ${err.message}${detail}`);
    }
    return { ok: false, error: err };
  }
}

/** Runs `query` as the service credential; it must succeed. */
async function service(query: string): Promise<unknown[]> {
  const outcome = await attempt(SERVICE, query);
  if (!outcome.ok)
    throw new Error(`the service credential: \`${query}\` failed: ${outcome.error.message}`);
  return outcome.value;
}

/** Every row of every type, read with the service credential. */
async function readModel(sc: Scenario): Promise<Model> {
  const rows: Row[] = [];
  for (const t of sc.types) {
    const fields = ['id', 'owner', 'name', 'rank', ...t.links.map((l) => `${l.name}: { id }`)];
    const result = (await service(`select ${t.name} { ${fields.join(', ')} }`)) as Record<
      string,
      unknown
    >[];
    for (const r of result) {
      const links: Record<string, string[]> = {};
      for (const l of t.links) {
        const v = r[l.name];
        const list = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
        links[l.name] = list.map((x) => (x as { id: string }).id).sort();
      }
      rows.push({
        id: r.id as string,
        type: t.name,
        owner: (r.owner as string | null) ?? null,
        name: r.name as string,
        rank: r.rank as number,
        links,
      });
    }
  }
  return modelOf(sortedJson(rows));
}

/** Migrates to the scenario's schema (through an empty one), seeds it, and reads the model. */
async function setUp(sc: Scenario): Promise<Model> {
  await migrator.migrate(tdb.db, '', { allowDataLoss: true });
  await migrator.migrate(tdb.db, sdlOf(sc));
  engine.schemaChanged();
  const seeded: Row[] = [];
  let rank = 0;
  for (const t of sc.types) {
    for (const [j, owner] of t.owners.entries()) {
      rank += 1;
      const name = `${t.name}_${j}`;
      const ownerSet = owner === null ? '' : `, owner := ${uuidLit(USERS[owner])}`;
      const [row] = (await service(
        `select (insert ${t.name} { name := '${name}', rank := ${rank}${ownerSet} }) { id }`,
      )) as { id: string }[];
      seeded.push({
        id: (row as { id: string }).id,
        type: t.name,
        owner: owner === null ? null : USERS[owner],
        name,
        rank,
        links: {},
      });
    }
  }
  // Links at random: a single link set three times in four, a multi link to each candidate
  // with probability 0.4.
  const random = prng(sc.dataSeed);
  const linked = seeded.map((row) => {
    const links: Record<string, string[]> = {};
    for (const l of linksOf(sc, row.type)) {
      const candidates = seeded.filter((r) => concreteOf(sc, l.target).includes(r.type));
      const chosen = l.multi
        ? candidates.filter(() => random() < 0.4)
        : random() < 0.75 && candidates.length
          ? [candidates[Math.floor(random() * candidates.length)] as Row]
          : [];
      links[l.name] = chosen.map((r) => r.id).sort();
    }
    return { ...row, links };
  });
  for (const row of linked) {
    const sets = Object.entries(row.links)
      .filter(([, ids]) => ids.length > 0)
      .map(([name, ids]) => {
        const l = linksOf(sc, row.type).find((x) => x.name === name) as LinkSpec;
        return l.multi
          ? `${name} := (select detached ${l.target} filter .id in {${ids.map(uuidLit).join(', ')}})`
          : `${name} := ${objectById(l.target, ids[0] as string)}`;
      });
    if (sets.length) {
      await service(
        `update ${row.type} filter .id = ${uuidLit(row.id)} set { ${sets.join(', ')} }`,
      );
    }
  }
  const model = await readModel(sc);
  // The service credential reads back exactly what it wrote.
  expect(model.rows).toEqual(sortedJson(linked));
  return model;
}

function describeScenario(sc: Scenario, model: Model): string {
  const nameOf = (id: string) => model.byId.get(id)?.name ?? id;
  const ownerName = (o: string | null) =>
    o === null ? 'nobody' : (Object.entries(USERS).find(([, v]) => v === o)?.[0] ?? o);
  const rows = model.rows.map((r) => {
    const links = Object.entries(r.links)
      .filter(([, ids]) => ids.length)
      .map(([l, ids]) => `${l} -> ${ids.map(nameOf).join(', ')}`);
    return `  ${r.name} (${ownerName(r.owner)}) ${r.id}${links.length ? `: ${links.join('; ')}` : ''}`;
  });
  return `schema:\n${sdlOf(sc)}\nrows:\n${rows.join('\n')}`;
}

/** The ids of rows `who` may not select, found anywhere in `text`. */
function leakedIds(oracle: Oracle, text: string): string[] {
  const found = new Set(
    text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [],
  );
  return oracle.model.rows.filter((r) => found.has(r.id) && !oracle.visible(r)).map((r) => r.name);
}

const show = (v: unknown) => JSON.stringify(v);

// ---------------------------------------------------------------------------------------------
// The checks

/** SVC_ACCESS_STRICT=1: the known gap (`mayRestrict`, see the module doc) is not tolerated. */
const STRICT = process.env.SVC_ACCESS_STRICT === '1';

async function checkRead(sc: Scenario, model: Model, q: Printed<Read>): Promise<void> {
  for (const who of [SERVICE, ...CALLERS, ODD_TOKEN]) {
    const oracle = new Oracle(sc, model, who);
    const expected = oracle.read(q.value);
    const outcome = await attempt(who, q.text);
    const where = `${who.label}: \`${q.text}\``;
    if (!outcome.ok) {
      if ('error' in expected && outcome.error.type === expected.error) continue;
      if (who.oddToken && outcome.error.type === 'InvalidValueError') continue;
      throw new Error(
        `${where} failed with ${outcome.error.type ?? outcome.error.code}: ${outcome.error.message}; expected ${'error' in expected ? expected.error : show(expected.value)}`,
      );
    }
    const leaked = leakedIds(oracle, outcome.text);
    if (leaked.length) {
      throw new Error(
        `${where} answered rows it may not select (${leaked.join(', ')}): ${outcome.text}`,
      );
    }
    const actual = canonRead(q.value, outcome.value);
    if ('error' in expected || show(actual) !== show(expected.value)) {
      throw new Error(
        `${where}\n  expected ${'error' in expected ? expected.error : show(expected.value)}\n  answered ${show(actual)}`,
      );
    }
  }
}

interface WriteExpectation {
  /** `denied`: AccessPolicyError, nothing written; `restricted`: a link still refers to a row. */
  readonly outcome: 'ok' | 'denied' | 'restricted';
  /** The rows that existed before, as they must be after. */
  readonly rows: readonly Row[];
  /** New rows (without their ids). */
  readonly created: readonly Omit<Row, 'id'>[];
  /** The ids the statement answers; null for an insert (its new rows). */
  readonly result: readonly string[] | null;
  /** The known gap: a delete whose rows link to each other through a multi link may be refused. */
  readonly mayRestrict?: boolean;
}

function resolveOwner(o: OwnerValue, who: Who): string | null {
  return o === 'A' || o === 'B' ? USERS[o] : o === 'none' ? null : who.uid;
}

function expectWrite(oracle: Oracle, w: Write): WriteExpectation {
  const { model, who } = oracle;
  switch (w.k) {
    case 'update': {
      const reached = oracle.src(w.subject).filter((r) => oracle.allows(r, 'update read'));
      const next = reached.map((r) => {
        let row: Row = r;
        for (const op of w.set) {
          if (op.k === 'rank') row = { ...row, rank: row.rank + 1000 };
          else if (op.k === 'owner') row = { ...row, owner: resolveOwner(op.owner, who) };
          else {
            const target = op.target === null ? undefined : model.byId.get(op.target);
            const seen = target !== undefined && oracle.visible(target) ? [target.id] : [];
            const old = row.links[op.link.name] ?? [];
            const value =
              op.op === ':='
                ? seen
                : op.op === '+='
                  ? [...new Set([...old, ...seen])]
                  : old.filter((id) => !seen.includes(id));
            row = { ...row, links: { ...row.links, [op.link.name]: value.sort() } };
          }
        }
        return row;
      });
      if (next.some((r) => !oracle.allows(r, 'update write'))) {
        return { outcome: 'denied', rows: model.rows, created: [], result: null };
      }
      const updated = new Map(next.map((r) => [r.id, r]));
      return {
        outcome: 'ok',
        rows: model.rows.map((r) => updated.get(r.id) ?? r),
        created: [],
        result: reached.map((r) => r.id).sort(),
      };
    }
    case 'delete': {
      const gone = new Set(
        oracle
          .src(w.subject)
          .filter((r) => oracle.allows(r, 'delete'))
          .map((r) => r.id),
      );
      const restricted = model.rows.some(
        (r) =>
          !gone.has(r.id) &&
          linksOf(oracle.sc, r.type).some(
            (l) => !l.allowDelete && (r.links[l.name] ?? []).some((id) => gone.has(id)),
          ),
      );
      if (restricted) return { outcome: 'restricted', rows: model.rows, created: [], result: null };
      const rows = model.rows
        .filter((r) => !gone.has(r.id))
        .map((r) => ({
          ...r,
          links: Object.fromEntries(
            Object.entries(r.links).map(([l, ids]) => [l, ids.filter((id) => !gone.has(id))]),
          ),
        }));
      const linkedAmong = model.rows.some(
        (r) =>
          gone.has(r.id) &&
          linksOf(oracle.sc, r.type).some(
            (l) => l.multi && !l.allowDelete && (r.links[l.name] ?? []).some((id) => gone.has(id)),
          ),
      );
      return {
        outcome: 'ok',
        rows,
        created: [],
        result: [...gone].sort(),
        mayRestrict: linkedAmong,
      };
    }
    case 'insert': {
      const owner = resolveOwner(w.owner, who);
      if (!oracle.allows({ type: w.type, owner }, 'insert')) {
        return { outcome: 'denied', rows: model.rows, created: [], result: null };
      }
      const links: Record<string, string[]> = {};
      for (const l of linksOf(oracle.sc, w.type)) links[l.name] = [];
      const nested: Omit<Row, 'id'>[] = [];
      const l = w.link;
      if (l && 'target' in l) {
        const target = model.byId.get(l.target);
        links[l.link.name] = target && oracle.visible(target) ? [target.id] : [];
      } else if (l) {
        // The new row is linked whether or not the caller may then select it.
        const nestedOwner = resolveOwner(l.nested, who);
        if (!oracle.allows({ type: l.link.target, owner: nestedOwner }, 'insert')) {
          return { outcome: 'denied', rows: model.rows, created: [], result: null };
        }
        links[l.link.name] = ['new:nested'];
        const nestedLinks = Object.fromEntries(
          linksOf(oracle.sc, l.link.target).map((x) => [x.name, [] as string[]]),
        );
        for (const _ of w.twice ? [1, 2] : [0]) {
          nested.push({
            type: l.link.target,
            owner: nestedOwner,
            name: 'nested',
            rank: 2000,
            links: nestedLinks,
          });
        }
      }
      const created = (w.twice ? [1, 2] : [0]).map((i) => ({
        type: w.type,
        owner,
        name: i ? `new${i}` : 'new',
        rank: 1000 + i,
        links,
      }));
      return { outcome: 'ok', rows: model.rows, created: [...created, ...nested], result: null };
    }
  }
}

/** What is wrong with a write's answer and the rows it left, or null. */
function judgeWrite(
  oracle: Oracle,
  expected: WriteExpectation,
  outcome: Outcome,
  after: Model,
): string | null {
  const before = new Set(oracle.model.rows.map((r) => r.id));
  const kept = after.rows.filter((r) => before.has(r.id));
  const created = after.rows.filter((r) => !before.has(r.id));
  if (expected.outcome !== 'ok') {
    const types =
      expected.outcome === 'denied'
        ? ['AccessPolicyError']
        : ['ForeignKeyViolationError', 'ConstraintViolationError'];
    if (outcome.ok) return `succeeded (${outcome.text}); expected ${types.join(' or ')}`;
    if (!types.includes(outcome.error.type ?? '')) {
      return `failed with ${outcome.error.type}: ${outcome.error.message}; expected ${types.join(' or ')}`;
    }
    if (expected.outcome === 'denied' && outcome.error.status !== 403) {
      return `was refused with ${outcome.error.status}, not 403`;
    }
  } else {
    if (!outcome.ok && expected.mayRestrict && !STRICT) {
      // The known gap: refused although the rows that link to each other all go; nothing lost.
      if (
        outcome.error.type === 'ForeignKeyViolationError' &&
        show(kept) === show(oracle.model.rows)
      ) {
        return null;
      }
    }
    if (!outcome.ok) {
      return `failed with ${outcome.error.type ?? outcome.error.code}: ${outcome.error.message}`;
    }
    const leaked = leakedIds(oracle, outcome.text);
    if (leaked.length) {
      return `answered rows it may not select (${leaked.join(', ')}): ${outcome.text}`;
    }
    const ids = outcome.value.map((x) => String((x as { id?: unknown } | null)?.id)).sort();
    if (expected.result !== null && show(ids) !== show(expected.result)) {
      return `answered ${show(ids)}; expected ${show(expected.result)}`;
    }
    if (expected.result === null) {
      // An insert answers its new rows (one the caller may not select may be left out).
      const outer = created.filter((r) => r.name !== 'nested');
      const newIds = outer.map((r) => r.id);
      const seen = outer.filter((r) => oracle.visible(r)).map((r) => r.id);
      if (!ids.every((id) => newIds.includes(id)) || !seen.every((id) => ids.includes(id))) {
        return `answered ${show(ids)}; the new rows are ${show(newIds)}`;
      }
    }
  }
  if (show(kept) !== show(expected.rows)) {
    return `left the rows\n    ${show(kept)}\n  expected\n    ${show(expected.rows)}`;
  }
  // New rows without their ids; a link to a new row names it (`new:nested`).
  const newNames = new Map(created.map((r) => [r.id, `new:${r.name}`]));
  const createdRows = sortedJson(
    created.map(({ id: _, ...rest }) => ({
      ...rest,
      links: Object.fromEntries(
        Object.entries(rest.links).map(([l, ids]) => [l, ids.map((id) => newNames.get(id) ?? id)]),
      ),
    })),
  );
  if (show(createdRows) !== show(sortedJson(expected.created))) {
    return `created ${show(createdRows)}; expected ${show(expected.created)}`;
  }
  return null;
}

/** Runs the write as `who` in a transaction, judges it, and always rolls the transaction back. */
async function checkWrite(sc: Scenario, model: Model, w: Printed<Write>, who: Who): Promise<void> {
  const oracle = new Oracle(sc, model, who);
  const expected = expectWrite(oracle, w.value);
  let problem: string | null = null;
  try {
    await tdb.db.transaction(async (tx) => {
      openTx = tx;
      try {
        await tx.query('savepoint w');
        const outcome = await attempt(who, w.text);
        if (!outcome.ok) await tx.query('rollback to savepoint w');
        problem = judgeWrite(oracle, expected, outcome, await readModel(sc));
      } finally {
        openTx = null;
      }
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  if (problem !== null) throw new Error(`${who.label}: \`${w.text}\`\n  ${problem}`);
}

// ---------------------------------------------------------------------------------------------

// Each schema costs two migrations and a seed: the defaults keep the file well under a minute.
const SCHEMAS = Number(process.env.SVC_ACCESS_RUNS ?? (testDatabaseKind() === 'pglite' ? 4 : 6));
const READS_PER_SCHEMA = 40;
const WRITES_PER_SCHEMA = 30;
const replay = {
  ...(process.env.SVC_ACCESS_SEED ? { seed: Number(process.env.SVC_ACCESS_SEED) } : {}),
  ...(process.env.SVC_ACCESS_PATH ? { path: process.env.SVC_ACCESS_PATH } : {}),
};

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = routed(tdb.db);
  engine = createQueryEngine({
    db,
    compile: compileQuery,
    schema: storedSchemaSource(db, migrator, buildSchema),
  });
}, 120_000);
afterAll(() => tdb?.dispose());

test(
  'random schemas, queries and callers: answers are what the policies allow, never a 500',
  async () => {
    let reads = 0;
    let writes = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        const model = await setUp(sc);
        const arbs = arbitraries(sc, model);
        try {
          await fc.assert(
            fc.asyncProperty(arbs.read, async (q) => {
              reads += 1;
              await checkRead(sc, model, q);
            }),
            { numRuns: READS_PER_SCHEMA, seed: sc.querySeed, includeErrorInReport: true },
          );
          await fc.assert(
            fc.asyncProperty(arbs.write, async ([w, who]) => {
              writes += 1;
              await checkWrite(sc, model, w, who);
            }),
            { numRuns: WRITES_PER_SCHEMA, seed: sc.querySeed + 1, includeErrorInReport: true },
          );
          // Every write was rolled back.
          expect((await readModel(sc)).rows).toEqual(model.rows);
        } catch (err) {
          throw new Error(`${(err as Error).message}\n\n${describeScenario(sc, model)}`);
        }
      }),
      { numRuns: SCHEMAS, endOnFailure: true, includeErrorInReport: true, ...replay },
    );
    expect(reads).toBeGreaterThanOrEqual(SCHEMAS * READS_PER_SCHEMA);
    expect(writes).toBeGreaterThanOrEqual(SCHEMAS * WRITES_PER_SCHEMA);
  },
  60_000 + SCHEMAS * 30_000,
);

/**
 * What the property found in the policies, each as the smallest query that showed it: fixed, and
 * kept so.
 */
describe('found by the property', () => {
  const SDL = `
type Note {
  owner: uuid;
  name: str;
  multi tags: Tag;
  access policy own allow all using (.owner ?= global current_user_id);
}
type Tag {
  owner: uuid;
  name: str;
  access policy own allow all using (.owner ?= global current_user_id);
}
type Open {
  name: str;
  multi friends: Open;
}`;
  const [userA, , , , closedA] = CALLERS as [Who, Who, Who, Who, Who];
  const failure = async (who: Who, query: string) => {
    const outcome = await attempt(who, query);
    return outcome.ok ? `answered ${outcome.text}` : outcome.error.type;
  };

  beforeAll(async () => {
    await migrator.migrate(tdb.db, '', { allowDataLoss: true });
    await migrator.migrate(tdb.db, SDL);
    engine.schemaChanged();
    await service(`with t := (insert Tag { name := 'b-tag', owner := ${uuidLit(USERS.B)} })
      insert Note { name := 'a-note', owner := ${uuidLit(USERS.A)}, tags := t }`);
    await service(`insert Open { name := 'x' }`);
  }, 60_000);

  test('an object cast of an unknown id into a type closed by defaultAccess: deny is CardinalityViolationError (Gel)', async () => {
    const unknown = uuidLit('00000000-0000-7000-8000-000000000001');
    // Under a policy that hides every row, and with policies off, the cast fails as in Gel...
    expect(await failure(userA, `select <Tag>${unknown}`)).toBe('CardinalityViolationError');
    expect(await failure(SERVICE, `select <Open>${unknown}`)).toBe('CardinalityViolationError');
    // ...and so it does into a type closed to the caller (the check once sat in a WHERE over
    // `where false`, which PostgreSQL never evaluated).
    expect(await failure(closedA, `select <Open>${unknown}`)).toBe('CardinalityViolationError');
  });

  test('a bare update or delete answers no id of a linked object the caller may not select', async () => {
    const [tag] = (await service('select Tag.id')) as string[];
    // A cannot see B's tag through a read...
    expect(await attempt(userA, 'select Note { name, tags }')).toMatchObject({
      ok: true,
      value: [{ name: 'a-note', tags: [] }],
    });
    // ...nor through the whole rows a bare update and delete answer.
    for (const query of [`update Note set { name := 'a-note' }`, 'delete Note']) {
      const outcome = await attempt(userA, query);
      expect(
        outcome.ok && outcome.text.includes(tag as string) ? `${query}: ${outcome.text}` : '',
      ).toBe('');
    }
  });
});
