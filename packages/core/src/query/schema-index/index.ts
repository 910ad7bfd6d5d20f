/**
 * query/schema-index: the schema as the query compiler looks it up, built once per Schema object
 * (memoised on it; a Schema is immutable, so a new version is a new object).
 *
 * Input: a built `Schema`. Output: a `SchemaIndex` — object types by name with their ancestors,
 * descendants and concrete descendants (the tables holding their rows), pointers by name with
 * where each is stored in each concrete table, backlinks (which pointers of which types target a
 * type), scalars, functions, aliases and globals by name, and the introspection types the
 * compiler provides itself: `std::BaseObject` and `std::Object` (ancestors of every user type,
 * with `id` and `__type__`) and Gel's `schema` module (./catalogue: `schema::ObjectType`,
 * `schema::Pointer`, ... with stable ids, UUID v5 of the type name), whose rows are a read-only
 * catalogue of this schema: single pointers are its "columns", multi pointers its "junctions",
 * both under the `svc_catalogue` storage names that plan/sources reads as VALUES.
 * Unions: a link target `A | B` (and a query's `[is A | B]`) is a set of several object types
 * with no common base. The index presents it as one more object type, named as EdgeQL prints it
 * (`default::A | default::B`): its rows are its members' rows, its ancestors the types every
 * member extends, and its pointers those every member has alike (as Gel gives a union type the
 * pointers its members share). Link targets are stored in PointerInfo under that name.
 * Intersections: `A[is B]` and `A & B` are the objects of both, presented as an object type
 * named `default::A & default::B` whose rows are the concrete types extending every part and
 * whose pointers are every part's. Unions of intersections are kept in disjunctive normal form
 * (`(A & B) | C` is named `default::A & default::B | default::C`).
 * Invariants: pure; every name is fully qualified; lists keep the schema's (sorted) order, so
 * compiled SQL is deterministic.
 */
import { createHash } from 'node:crypto';
import type {
  Alias,
  FunctionDef,
  Global,
  ObjectType,
  Pointer,
  ScalarType,
  Schema,
  TypeRef,
} from '../../model/schema';
import { BUILTIN_ENUMS } from '../../model/fts';
import { STD_ENUMS } from '../../model/schema';
import { columnName, pointerTableName, tableName } from '../../storage/names';
import type { QName } from '../../sql';
import { CATALOGUE_SCHEMA, catalogueTypes, isCatalogueType } from './catalogue';

export const BASE_OBJECT = 'std::BaseObject';
export const OBJECT = 'std::Object';
export const SCHEMA_OBJECT_TYPE = 'schema::ObjectType';
/** Modules the compiler knows without the schema declaring them. */
export const BUILTIN_MODULES: readonly string[] = ['std', 'cal', 'math', 'schema', 'sys', 'fts'];

/** `fts::Language`, `fts::Weight`, `std::Endian`: enums every schema has without declaring them. */
const BUILTIN_SCALARS: readonly ScalarType[] = Object.entries({
  ...BUILTIN_ENUMS,
  ...STD_ENUMS,
}).map(([name, values]) => ({
  name,
  abstract: false,
  base: 'std::anyenum',
  stdBase: 'std::str',
  enumValues: values,
  constraints: [],
  annotations: {},
  span: null,
}));

/** Where one pointer's values live for rows of one concrete type. */
export type PointerStorage =
  /** `id`: the row's own key. */
  | { readonly kind: 'id' }
  /** A column of the concrete type's table (single pointers; `link@prop` for link properties). */
  | { readonly kind: 'column'; readonly column: string }
  /** A table `(source, target|value, link properties...)` (multi pointers). */
  | { readonly kind: 'junction'; readonly table: QName; readonly valueColumn: 'target' | 'value' }
  /** `__type__`: the concrete type itself (a constant per table). */
  | { readonly kind: 'type' }
  /** A computed pointer: its expression, compiled where it is used. */
  | { readonly kind: 'computed' };

export interface PointerInfo {
  readonly name: string;
  readonly kind: 'property' | 'link';
  readonly required: boolean;
  readonly many: boolean;
  readonly target: TypeRef;
  readonly computed: Pointer['computed'];
  /** The type that declared it (where its computed expression's module and `.` come from). */
  readonly declaredIn: string;
  /** Link properties by name (empty for properties). */
  readonly properties: ReadonlyMap<string, PointerInfo>;
  /** The schema's pointer; null for the compiler's own (`id` of introspection types, `__type__`). */
  readonly model: Pointer | null;
}

export interface ObjectTypeInfo {
  readonly name: string;
  /** Stable: UUID v5 of the name. */
  readonly id: string;
  readonly abstract: boolean;
  /** C3 order, then `std::Object`, `std::BaseObject` for user types. */
  readonly ancestors: readonly string[];
  /** Every type extending this one, directly or not (sorted). */
  readonly descendants: readonly string[];
  /** The concrete types whose rows are rows of this type (itself when concrete), sorted. */
  readonly concrete: readonly string[];
  /** Every pointer, `id` first, then as the schema orders them; `__type__` last. */
  readonly pointers: ReadonlyMap<string, PointerInfo>;
  /** Null for the compiler's own types. */
  readonly model: ObjectType | null;
  /** Where the rows of a concrete type are; null for catalogue types. */
  readonly table: QName | null;
}

export interface Backlink {
  /** The type declaring the pointer (its rows, and its descendants', hold the link). */
  readonly source: string;
  readonly pointer: PointerInfo;
}

export interface SchemaIndex {
  readonly schema: Schema;
  readonly modules: ReadonlySet<string>;
  objectType(name: string): ObjectTypeInfo | undefined;
  scalar(name: string): ScalarType | undefined;
  functions(name: string): readonly FunctionDef[];
  alias(name: string): Alias | undefined;
  global(name: string): Global | undefined;
  /** Every object type, user and compiler-provided, sorted by name. */
  readonly objectTypes: readonly ObjectTypeInfo[];
  /** Links named `name` whose target may hold objects of `target` (for `.<name`). */
  backlinks(
    name: string,
    target: string,
    readable?: (link: Pointer) => boolean,
  ): readonly Backlink[];
  /** Where `pointer` of rows of concrete type `concrete` is stored. */
  storage(concrete: string, pointer: PointerInfo): PointerStorage;
  /** True when `sub` is `sup` or extends it. */
  isSubtype(sub: string, sup: string): boolean;
  /**
   * The type holding exactly the objects of `members` (object type or union names): one member
   * when it includes the others, else the union of those no other member includes, by name.
   */
  unionOf(members: readonly string[]): string;
  /** The member types of a union name; `[name]` for any other type. */
  membersOf(name: string): readonly string[];
  /**
   * The type holding exactly the objects that are of both `a` and `b` (`a[is b]`, `a & b`): `a`
   * when it is within `b` (and the reverse), else the union over their members of each pair's
   * intersection (`default::Ba & default::Bb`, parts sorted, a part another part extends dropped).
   */
  intersectionOf(a: string, b: string): string;
}

/** The separator in a union type's name, as EdgeQL prints it. */
const UNION_SEPARATOR = ' | ';
/** The separator in an intersection type's name (binds tighter than the union's). */
const INTERSECTION_SEPARATOR = ' & ';

const memo = new WeakMap<Schema, SchemaIndex>();

/** The index of `schema`, built on first use and kept as long as the Schema object lives. */
export function schemaIndex(schema: Schema): SchemaIndex {
  let index = memo.get(schema);
  if (!index) {
    index = buildIndex(schema);
    memo.set(schema, index);
  }
  return index;
}

/** UUID v5 (SHA-1, RFC 4122) of `name` in a namespace of svc's own: the id of a schema type. */
export function typeId(name: string): string {
  const namespace = Buffer.from('5f0b6a6e3c1d4f7e9a2b8c4d6e1f0a3b', 'hex');
  const hash = createHash('sha1').update(namespace).update(name).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_T: TypeRef = { kind: 'scalar', name: 'std::uuid' };

function ownPointer(
  name: string,
  target: TypeRef,
  declaredIn: string,
  kind: 'property' | 'link' = 'property',
): PointerInfo {
  return {
    name,
    kind,
    required: true,
    many: false,
    target,
    computed: null,
    declaredIn,
    properties: new Map(),
    model: null,
  };
}

/** A TypeRef as the compiler types values: a union link target becomes its union type's name. */
function indexedTarget(target: TypeRef): TypeRef {
  if (target.kind !== 'union') return target;
  return { kind: 'object', name: target.members.join(UNION_SEPARATOR) };
}

/**
 * A pointer as the index shows it. Its kind, cardinality and target are read from the model
 * when first asked for: a schema being built (schema/build/computed) gives a computed's on
 * demand, inferred through this index.
 */
function pointerInfo(p: Pointer): PointerInfo {
  let target: TypeRef | undefined;
  return {
    name: p.name,
    get kind() {
      return p.kind;
    },
    get required() {
      return p.required;
    },
    get many() {
      return p.cardinality === 'many';
    },
    get target() {
      target ??= indexedTarget(p.target);
      return target;
    },
    computed: p.computed,
    declaredIn: p.declaredIn,
    properties: new Map(p.properties.map((lp) => [lp.name, pointerInfo(lp)])),
    model: p,
  };
}

function buildIndex(schema: Schema): SchemaIndex {
  const typeLink = ownPointer(
    '__type__',
    { kind: 'object', name: SCHEMA_OBJECT_TYPE },
    OBJECT,
    'link',
  );
  const types = new Map<string, ObjectTypeInfo>();
  const userTypes = schema.objectTypes;
  const descendantsOf = (name: string): string[] =>
    userTypes.filter((t) => t.ancestors.includes(name)).map((t) => t.name);
  const concreteOf = (name: string): string[] =>
    userTypes
      .filter((t) => !t.abstract && (t.name === name || t.ancestors.includes(name)))
      .map((t) => t.name);

  for (const t of userTypes) {
    const pointers = new Map<string, PointerInfo>();
    for (const p of t.pointers) pointers.set(p.name, pointerInfo(p));
    pointers.set('__type__', typeLink);
    types.set(t.name, {
      name: t.name,
      id: typeId(t.name),
      abstract: t.abstract,
      ancestors: [...t.ancestors, OBJECT, BASE_OBJECT],
      descendants: descendantsOf(t.name),
      concrete: concreteOf(t.name),
      pointers,
      model: t,
      table: t.abstract ? null : tableName(t.name),
    });
  }
  const allUser = userTypes.map((t) => t.name);
  const allConcrete = userTypes.filter((t) => !t.abstract).map((t) => t.name);
  for (const [name, ancestors] of [
    [BASE_OBJECT, []],
    [OBJECT, [BASE_OBJECT]],
  ] as const) {
    types.set(name, {
      name,
      id: typeId(name),
      abstract: true,
      ancestors,
      descendants: name === BASE_OBJECT ? [OBJECT, ...allUser] : allUser,
      concrete: allConcrete,
      pointers: new Map([
        ['id', ownPointer('id', UUID_T, BASE_OBJECT)],
        ['__type__', typeLink],
      ]),
      model: null,
      table: null,
    });
  }
  // The schema module: a read-only catalogue of the schema (./catalogue), its types rows of
  // `std::BaseObject` too.
  const catalogue = catalogueTypes((types.get(BASE_OBJECT) as ObjectTypeInfo).pointers, typeId);
  for (const info of catalogue) types.set(info.name, info);
  const base = types.get(BASE_OBJECT) as ObjectTypeInfo;
  types.set(BASE_OBJECT, {
    ...base,
    descendants: [...base.descendants, ...catalogue.map((t) => t.name)],
    concrete: [...base.concrete, ...catalogue.filter((t) => !t.abstract).map((t) => t.name)],
  });
  const sorted = [...types.values()].sort((a, b) => (a.name < b.name ? -1 : 1));

  const scalars = new Map([...BUILTIN_SCALARS, ...schema.scalarTypes].map((s) => [s.name, s]));
  const functions = new Map<string, FunctionDef[]>();
  for (const f of schema.functions) functions.set(f.name, [...(functions.get(f.name) ?? []), f]);
  const aliases = new Map(schema.aliases.map((a) => [a.name, a]));
  const globals = new Map(schema.globals.map((g) => [g.name, g]));

  // A derived type's name is a union (` | `) of members, each a plain type or an intersection
  // (` & `) of plain types: the disjunctive normal form of `|` and `&` over object types.
  const membersOf = (name: string): readonly string[] =>
    name.includes(UNION_SEPARATOR) ? name.split(UNION_SEPARATOR) : [name];
  const partsOf = (member: string): readonly string[] =>
    member.includes(INTERSECTION_SEPARATOR) ? member.split(INTERSECTION_SEPARATOR) : [member];
  const isPlainSubtype = (sub: string, sup: string): boolean =>
    sub === sup || (types.get(sub)?.ancestors.includes(sup) ?? false);
  // A member is within another when each part of the other is extended by one of its parts.
  const isMemberSubtype = (sub: string, sup: string): boolean =>
    sub === sup || partsOf(sup).every((s) => partsOf(sub).some((p) => isPlainSubtype(p, s)));
  // Every member of `sub` is within some member of `sup`.
  const isSubtype = (sub: string, sup: string): boolean =>
    sub === sup || membersOf(sub).every((m) => membersOf(sup).some((s) => isMemberSubtype(m, s)));

  const unions = new Map<string, ObjectTypeInfo>();
  const unionOf = (members: readonly string[]): string => {
    const flat = [...new Set(members.flatMap(membersOf))];
    const kept = flat.filter((m) => !flat.some((o) => o !== m && isMemberSubtype(m, o))).sort();
    const name = kept.join(UNION_SEPARATOR);
    if (kept.length > 1 && !unions.has(name)) unions.set(name, unionInfo(name, kept));
    return name;
  };
  // One intersection member: its parts without those another part extends, sorted.
  const intersectionMember = (parts: readonly string[]): string => {
    const flat = [...new Set(parts)];
    const kept = flat.filter((p) => !flat.some((o) => o !== p && isPlainSubtype(o, p))).sort();
    const name = kept.join(INTERSECTION_SEPARATOR);
    if (kept.length > 1 && !unions.has(name)) unions.set(name, intersectionInfo(name, kept));
    return name;
  };
  const intersectionOf = (a: string, b: string): string => {
    if (isSubtype(a, b)) return a;
    if (isSubtype(b, a)) return b;
    const pairs = membersOf(a).flatMap((ma) =>
      membersOf(b).map((mb) => intersectionMember([...partsOf(ma), ...partsOf(mb)])),
    );
    return unionOf(pairs);
  };
  // The objects of every part: the concrete types extending all of them; every part's pointers.
  const intersectionInfo = (name: string, parts: readonly string[]): ObjectTypeInfo => {
    const infos = parts.map((m) => types.get(m) as ObjectTypeInfo);
    const within = (t: string) => parts.every((p) => isPlainSubtype(t, p));
    const pointers = new Map<string, PointerInfo>();
    for (const info of infos) {
      for (const [pname, p] of info.pointers) if (!pointers.has(pname)) pointers.set(pname, p);
    }
    const typeLink = pointers.get('__type__');
    if (typeLink) {
      pointers.delete('__type__');
      pointers.set('__type__', typeLink);
    }
    return {
      name,
      id: typeId(name),
      abstract: true,
      ancestors: [...new Set(infos.flatMap((t) => [t.name, ...t.ancestors]))],
      descendants: userTypes.map((t) => t.name).filter(within),
      concrete: allConcrete.filter(within),
      pointers,
      model: null,
      table: null,
    };
  };
  const memberInfo = (member: string): ObjectTypeInfo =>
    (types.get(member) ?? unions.get(intersectionMember(partsOf(member)))) as ObjectTypeInfo;
  const unionInfo = (name: string, members: readonly string[]): ObjectTypeInfo => {
    const infos = members.map(memberInfo);
    const lineage = (t: ObjectTypeInfo) => [t.name, ...t.ancestors];
    const [first, ...rest] = infos as [ObjectTypeInfo, ...ObjectTypeInfo[]];
    const ancestors = first.ancestors.filter((a) => rest.every((t) => lineage(t).includes(a)));
    const sortedUnique = (names: readonly string[]) => [...new Set(names)].sort();
    const pointers = new Map<string, PointerInfo>();
    for (const [pname, p] of first.pointers) {
      const others = rest.map((t) => t.pointers.get(pname));
      const shared = sharedPointer(p, others);
      if (shared) pointers.set(pname, shared);
    }
    return {
      name,
      id: typeId(name),
      abstract: true,
      ancestors,
      descendants: sortedUnique(infos.flatMap((t) => [t.name, ...t.descendants])),
      concrete: sortedUnique(infos.flatMap((t) => t.concrete)),
      pointers,
      model: null,
      table: null,
    };
  };
  const objectType = (name: string): ObjectTypeInfo | undefined => {
    const found = types.get(name) ?? unions.get(name);
    if (found || (!name.includes(UNION_SEPARATOR) && !name.includes(INTERSECTION_SEPARATOR)))
      return found;
    const members = membersOf(name);
    if (!members.every((m) => partsOf(m).every((p) => types.has(p)))) return undefined;
    const normal = unionOf(members.map((m) => intersectionMember(partsOf(m))));
    return unions.get(normal) ?? types.get(normal);
  };

  // Backlinks: every declared link, by name; a link is listed once, on the type declaring it.
  // Gathered per name on first use (only pointers of that name are asked their kind).
  const linksByName = new Map<string, Backlink[]>();
  const linksNamed = (name: string): Backlink[] => {
    let list = linksByName.get(name);
    if (list) return list;
    list = [];
    for (const t of catalogue) {
      const p = t.pointers.get(name);
      if (!p || p.kind !== 'link' || p.declaredIn !== t.name || p.name === '__type__') continue;
      list.push({ source: t.name, pointer: p });
    }
    for (const t of userTypes) {
      for (const p of t.pointers) {
        if (p.name !== name || p.declaredIn !== t.name || p.kind !== 'link') continue;
        list.push({
          source: t.name,
          pointer: types.get(t.name)?.pointers.get(p.name) as PointerInfo,
        });
      }
    }
    linksByName.set(name, list);
    return list;
  };

  return {
    schema,
    modules: new Set([...schema.modules, ...BUILTIN_MODULES, 'default']),
    objectTypes: sorted,
    objectType,
    scalar: (name) => scalars.get(name),
    functions: (name) => functions.get(name) ?? [],
    alias: (name) => aliases.get(name),
    global: (name) => globals.get(name),
    // `readable`: a schema being built leaves out a computed link being typed (its target is
    // what is being found).
    backlinks(name, target, readable) {
      return linksNamed(name).filter((b) => {
        if (readable && b.pointer.model && !readable(b.pointer.model)) return false;
        const to = b.pointer.target;
        // The link may point at `target`, at one of its ancestors or at one of its descendants.
        return to.kind === 'object' && (isSubtype(target, to.name) || isSubtype(to.name, target));
      });
    },
    storage(concrete, pointer) {
      if (pointer.name === '__type__' && pointer.model === null) return { kind: 'type' };
      if (pointer.name === 'id') return { kind: 'id' };
      if (isCatalogueType(concrete)) {
        if (!pointer.many) return { kind: 'column', column: pointer.name };
        const name = `${concrete}.${pointer.name}`;
        const valueColumn = pointer.kind === 'link' ? 'target' : 'value';
        return { kind: 'junction', table: { schema: CATALOGUE_SCHEMA, name }, valueColumn };
      }
      if (pointer.computed) return { kind: 'computed' };
      // A union's pointer is stored as each member declares it (single on one, multi on another).
      const own = types.get(concrete)?.pointers.get(pointer.name) ?? pointer;
      if (!own.many) return { kind: 'column', column: columnName(pointer.name) };
      return {
        kind: 'junction',
        table: pointerTableName(concrete, pointer.name),
        valueColumn: pointer.kind === 'link' ? 'target' : 'value',
      };
    },
    isSubtype,
    unionOf,
    membersOf,
    intersectionOf,
  };
}

/**
 * The pointer a union type has when its first member has `p` and the others have `others`:
 * the same pointer inherited from a common base, or stored pointers of the same kind and target
 * declared on each member (read by name from each member's rows). As Gel's union pointer: multi
 * when multi on some member (each member's own storage is read: plan/sources `junctionSource`),
 * required only when required on all; link properties are those all have. Null when some member
 * lacks it.
 */
function sharedPointer(
  p: PointerInfo,
  others: readonly (PointerInfo | undefined)[],
): PointerInfo | null {
  if (others.some((o) => o === undefined)) return null;
  const all = others as readonly PointerInfo[];
  const sameTarget = (o: PointerInfo) => JSON.stringify(o.target) === JSON.stringify(p.target);
  // Inherited from one declaration: the same pointer (computed ones too).
  if (all.every((o) => o === p || (o.declaredIn === p.declaredIn && sameTarget(o)))) return p;
  const alike = (o: PointerInfo) =>
    o.kind === p.kind && o.computed === null && p.computed === null && sameTarget(o);
  if (!all.every(alike)) return null;
  const properties = new Map(
    [...p.properties].filter(([name, lp]) =>
      all.every(
        (o) => JSON.stringify(o.properties.get(name)?.target) === JSON.stringify(lp.target),
      ),
    ),
  );
  return {
    ...p,
    required: p.required && all.every((o) => o.required),
    many: p.many || all.some((o) => o.many),
    properties,
  };
}
