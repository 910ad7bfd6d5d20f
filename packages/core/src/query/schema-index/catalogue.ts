/**
 * query/schema-index/catalogue: Gel's `schema` module as the query compiler provides it — the
 * introspection types (`schema::Object`, `schema::Type`, `schema::ObjectType`,
 * `schema::ScalarType`, `schema::Pointer`, `schema::Link`, `schema::Property`,
 * `schema::Annotation`, ...; their pointers as Gel's schema.edgeql declares them, as far as svc
 * has the facts) and their rows: a read-only catalogue derived from the schema index, once per
 * index (so once per schema version).
 *
 * Input: the user types' infos (for the type declarations) and then the whole `SchemaIndex` (for
 * the rows). Output: `catalogueTypes` (ObjectTypeInfo per schema-module type, merged into the
 * index) and `catalogueRows(index)`: per concrete catalogue type its rows (id and one value per
 * single pointer, links as target ids), and per multi pointer its junction rows `(source, target,
 * link properties)`. The planner (plan/sources) reads both as VALUES relations under the names
 * the index gives as their storage, so paths, shapes, filters, order by and backlinks work on
 * them as on stored types.
 * Ids are stable: UUID v5 (`typeId`) of the type name for types (Gel's spelling: `std::cal::...`
 * for svc's `cal::...`), of `<type>.<pointer>` for pointers, `<type>.<link>@<property>` for link
 * properties, `module:<name>` for modules.
 * Invariants: pure; rows in a deterministic order (types by name, pointers as the index orders them).
 */
import {
  SCHEMA_MODULE_TYPES as DECLS,
  isSchemaModuleType,
  type SchemaModuleType,
} from '../../model/introspection';
import { RANGE_ELEMENTS, STD_SCALARS, type TypeRef } from '../../model/schema';
import type { ObjectTypeInfo, PointerInfo, SchemaIndex } from './index';

/** The module of the catalogue types, and the schema name their storage is given under. */
export const CATALOGUE_MODULE = 'schema';
export const CATALOGUE_SCHEMA = 'svc_catalogue';

const DECL_BY_NAME = new Map(DECLS.map((d) => [d.name, d]));
type TypeDecl = SchemaModuleType;
type PointerDecl = SchemaModuleType['pointers'][number];

/** True for a type of the schema module (its rows are the catalogue's). */
export const isCatalogueType = isSchemaModuleType;

/**
 * C3 linearisation of a catalogue type's ancestors (nearest first), without itself. Made once per
 * type and kept (the declarations are constants): building an index asks for every type's, and
 * for each type's descendants every other's.
 */
const LINEAGES = new Map<string, readonly string[]>();
function linearise(name: string): readonly string[] {
  const known = LINEAGES.get(name);
  if (known) return known;
  const decl = DECL_BY_NAME.get(name);
  if (!decl) return [];
  const seqs = decl.bases.map((b) => [b, ...linearise(b)]);
  seqs.push([...decl.bases]);
  const out: string[] = [];
  for (;;) {
    const live = seqs.filter((s) => s.length > 0);
    if (live.length === 0) break;
    const head = live
      .map((s) => s[0] as string)
      .find((h) => !live.some((s) => s.indexOf(h) > 0)) as string;
    out.push(head);
    for (const s of live) if (s[0] === head) s.shift();
  }
  LINEAGES.set(name, out);
  return out;
}

function targetRef(target: string): TypeRef {
  return target.includes('::')
    ? { kind: 'object', name: target }
    : { kind: 'scalar', name: `std::${target}` };
}

function declPointer(decl: TypeDecl, p: PointerDecl): PointerInfo {
  const [name, target, ...flags] = p;
  const ref = targetRef(target);
  const prop = (pname: string, scalar: string): [string, PointerInfo] => [
    pname,
    {
      name: pname,
      kind: 'property',
      required: false,
      many: false,
      target: { kind: 'scalar', name: scalar },
      computed: null,
      declaredIn: decl.name,
      properties: new Map(),
      model: null,
    },
  ];
  const properties = new Map<string, PointerInfo>([
    ...(flags.includes('index') ? [prop('index', 'std::int64')] : []),
    ...(flags.includes('value') ? [prop('value', 'std::str'), prop('owned', 'std::bool')] : []),
  ]);
  return {
    name,
    kind: ref.kind === 'object' ? 'link' : 'property',
    required: flags.includes('required'),
    many: flags.includes('many'),
    target: ref,
    computed: null,
    declaredIn: decl.name,
    properties,
    model: null,
  };
}

/**
 * The schema module's types as ObjectTypeInfo. `base` is `std::BaseObject`'s infos' pointers
 * (`id`, `__type__`); `ancestorsOfBaseObject` what every type ends with.
 */
export function catalogueTypes(
  basePointers: ReadonlyMap<string, PointerInfo>,
  typeId: (name: string) => string,
): ObjectTypeInfo[] {
  const baseObject = 'std::BaseObject';
  const infos: ObjectTypeInfo[] = [];
  for (const decl of DECLS) {
    const ancestors = [...linearise(decl.name)];
    if (!ancestors.includes(baseObject)) ancestors.push(baseObject);
    // Own pointers win over inherited ones; the farthest ancestor's come first.
    const pointers = new Map<string, PointerInfo>([['id', basePointers.get('id') as PointerInfo]]);
    for (const a of [...ancestors].reverse()) {
      const d = DECL_BY_NAME.get(a);
      for (const p of d?.pointers ?? []) pointers.set(p[0], declPointer(d as TypeDecl, p));
    }
    for (const p of decl.pointers) pointers.set(p[0], declPointer(decl, p));
    pointers.set('__type__', basePointers.get('__type__') as PointerInfo);
    const descendants = DECLS.filter((d) => linearise(d.name).includes(decl.name))
      .map((d) => d.name)
      .sort();
    const concrete = [decl.name, ...descendants].filter((n) => !DECL_BY_NAME.get(n)?.abstract);
    infos.push({
      name: decl.name,
      id: typeId(decl.name),
      abstract: decl.abstract,
      ancestors,
      descendants,
      concrete: concrete.sort(),
      pointers,
      model: null,
      table: null,
    });
  }
  return infos;
}

// ---------------------------------------------------------------------------------------------
// Rows

export type CatalogueValue = string | number | boolean | null;
export interface CatalogueJunctionRow {
  readonly source: string;
  readonly target: CatalogueValue;
  readonly props?: Readonly<Record<string, CatalogueValue>>;
}
export interface CatalogueRows {
  /** Per concrete catalogue type: its rows (`id` and each single pointer by name). */
  readonly rows: ReadonlyMap<string, readonly Readonly<Record<string, CatalogueValue>>[]>;
  /** Per `<concrete type>.<multi pointer>`: its junction rows. */
  readonly junctions: ReadonlyMap<string, readonly CatalogueJunctionRow[]>;
}

/** Gel's spelling of a type's name (svc's `cal::x` is Gel's `std::cal::x`). */
export function catalogueTypeName(type: TypeRef): string {
  switch (type.kind) {
    case 'scalar':
      return type.name.startsWith('cal::') ? `std::${type.name}` : type.name;
    case 'object':
      return type.name;
    case 'union':
      return type.members.join(' | ');
    case 'array':
      return `array<${catalogueTypeName(type.element)}>`;
    case 'range':
      return `range<${catalogueTypeName(type.element)}>`;
    case 'multirange':
      return `multirange<${catalogueTypeName(type.element)}>`;
    case 'tuple':
      return `tuple<${type.elements
        .map((e) => (e.name ? `${e.name}: ` : '') + catalogueTypeName(e.type))
        .join(', ')}>`;
  }
}

/** The catalogue type holding the row of a type of this kind. */
export function catalogueTypeOf(type: TypeRef): string {
  switch (type.kind) {
    case 'scalar':
      return 'schema::ScalarType';
    case 'object':
    case 'union':
      return 'schema::ObjectType';
    case 'array':
      return 'schema::Array';
    case 'range':
      return 'schema::Range';
    case 'multirange':
      return 'schema::MultiRange';
    case 'tuple':
      return 'schema::Tuple';
  }
}

/** A schema alias as the catalogue lists it (query/bind/alias-types gives its type). */
export interface CatalogueAlias {
  readonly name: string;
  readonly type: TypeRef;
  /** Its top-level shape's view type (Gel's `__<alias>__<Type>`), or null. */
  readonly view: CatalogueView | null;
}
/** A shape's view type: its object type's pointers and the elements it adds or changes. */
export interface CatalogueView {
  readonly name: string;
  readonly base: string;
  readonly elements: readonly {
    readonly name: string;
    readonly kind: 'link' | 'property';
    readonly type: TypeRef;
    readonly many: boolean;
    readonly required: boolean;
    readonly view: CatalogueView | null;
  }[];
}

const STD_ANNOTATIONS = ['std::deprecated', 'std::description', 'std::title'];

const rowsMemo = new WeakMap<SchemaIndex, CatalogueRows>();
/** Without the aliases' rows: what `introspect` checks (binding an alias may need it). */
const typeRowsMemo = new WeakMap<SchemaIndex, CatalogueRows>();

/** The catalogue's rows for `index` (built once per index; `aliases` are the index's aliases). */
export function catalogueRows(
  index: SchemaIndex,
  typeId: (name: string) => string,
  aliases: readonly CatalogueAlias[],
): CatalogueRows {
  const memo = aliases.length === 0 ? typeRowsMemo : rowsMemo;
  let rows = memo.get(index);
  if (!rows) {
    rows = buildRows(index, typeId, aliases);
    memo.set(index, rows);
  }
  return rows;
}

function buildRows(
  index: SchemaIndex,
  typeId: (name: string) => string,
  aliases: readonly CatalogueAlias[],
): CatalogueRows {
  const rows = new Map<string, Record<string, CatalogueValue>[]>();
  const junctions = new Map<string, CatalogueJunctionRow[]>();
  const add = (type: string, row: Record<string, CatalogueValue>) => {
    const list = rows.get(type) ?? [];
    list.push(row);
    rows.set(type, list);
  };
  const link = (
    type: string,
    pointer: string,
    source: string,
    target: CatalogueValue,
    props?: Record<string, CatalogueValue>,
  ) => {
    const key = `${type}.${pointer}`;
    const list = junctions.get(key) ?? [];
    list.push(props ? { source, target, props } : { source, target });
    junctions.set(key, list);
  };
  const object = (name: string, builtin: boolean) => ({
    id: typeId(name),
    name,
    internal: false,
    builtin,
  });
  const subclassable = (abstract: boolean) => ({
    abstract,
    is_abstract: abstract,
    final: false,
    is_final: false,
  });
  const typeFields = { expr: null, from_alias: false, is_from_alias: false };

  // Types that pointers target: collections and unions get rows of their own.
  const plain = new Set(index.objectTypes.map((t) => t.name));
  const seen = new Set<string>();
  const typeRow = (type: TypeRef): string => {
    const name = catalogueTypeName(type);
    const id = typeId(name);
    if (seen.has(name)) return id;
    seen.add(name);
    switch (type.kind) {
      case 'array':
      case 'range':
      case 'multirange': {
        const element = typeRow(type.element);
        add(catalogueTypeOf(type), {
          ...object(name, true),
          ...subclassable(false),
          ...typeFields,
          element_type: element,
        });
        break;
      }
      case 'tuple': {
        add('schema::Tuple', {
          ...object(name, true),
          ...subclassable(false),
          ...typeFields,
          named: type.elements.some((e) => e.name !== null),
        });
        type.elements.forEach((e, i) => {
          const elementId = typeId(`${name}[${i}]`);
          add('schema::TupleElement', {
            id: elementId,
            type: typeRow(e.type),
            name: e.name ?? String(i),
          });
          link('schema::Tuple', 'element_types', id, elementId, { index: i });
        });
        break;
      }
      case 'union':
      case 'object': {
        // Plain types have their rows in name order below; derived ones (unions) get theirs here.
        const info = index.objectType(type.kind === 'object' ? type.name : name);
        if (info && !plain.has(info.name) && !seen.has(`rows:${info.name}`)) objectTypeRow(info);
        break;
      }
      case 'scalar':
        break;
    }
    return id;
  };

  const pointerRows = (
    source: string,
    sourceId: string,
    p: PointerInfo,
    builtin: boolean,
    owner: string,
  ) => {
    const id = typeId(source.endsWith('@') ? `${source}${p.name}` : `${source}.${p.name}`);
    const system = p.model === null && (p.name === 'id' || p.name === '__type__');
    const type = p.kind === 'link' ? 'schema::Link' : 'schema::Property';
    add(type, {
      ...object(p.name, builtin),
      id,
      ...subclassable(false),
      cardinality: p.many ? 'Many' : 'One',
      required: p.required,
      readonly: system || (p.model?.readonly ?? false),
      default: null,
      expr: null,
      secret: false,
      source: sourceId,
      target: typeRow(p.target),
      ...(p.kind === 'link'
        ? {
            on_target_delete: p.model?.onTargetDelete ?? (system ? null : 'Restrict'),
            on_source_delete: p.model?.onSourceDelete ?? (system ? null : 'Allow'),
          }
        : {}),
    });
    link(owner, 'pointers', sourceId, id);
    link(owner, p.kind === 'link' ? 'links' : 'properties', sourceId, id);
    for (const [key, value] of Object.entries(p.model?.annotations ?? {})) {
      link(type, 'annotations', id, typeId(key), { value, owned: true });
    }
    for (const lp of p.properties.values()) {
      pointerRows(`${source}.${p.name}@`, id, lp, builtin, 'schema::Link');
    }
  };

  const objectTypeRow = (info: ObjectTypeInfo) => {
    seen.add(`rows:${info.name}`);
    seen.add(info.name);
    const builtin =
      info.model === null && index.schema.objectTypes.every((t) => t.name !== info.name);
    const compound = info.name.includes(' | ') || info.name.includes(' & ');
    add('schema::ObjectType', {
      ...object(info.name, builtin),
      ...subclassable(info.abstract),
      ...typeFields,
      compound_type: compound,
      is_compound_type: compound,
    });
    const id = info.id;
    if (compound) {
      const parts = info.name.includes(' | ') ? index.membersOf(info.name) : info.name.split(' & ');
      const kind = info.name.includes(' | ') ? 'union_of' : 'intersection_of';
      for (const m of parts) link('schema::ObjectType', kind, id, typeId(m));
      return;
    }
    const declared = info.model?.bases ?? [];
    const bases =
      declared.length > 0
        ? declared
        : info.ancestors.length > 0
          ? [info.model ? 'std::Object' : (info.ancestors[0] as string)]
          : [];
    for (const [i, b] of bases.entries()) {
      link('schema::ObjectType', 'bases', id, typeId(b), { index: i });
    }
    for (const [i, a] of info.ancestors.entries()) {
      link('schema::ObjectType', 'ancestors', id, typeId(a), { index: i });
    }
    for (const [key, value] of Object.entries(info.model?.annotations ?? {})) {
      link('schema::ObjectType', 'annotations', id, typeId(key), { value, owned: true });
    }
    for (const p of info.pointers.values()) {
      pointerRows(info.name, id, p, builtin, 'schema::ObjectType');
    }
    for (const policy of info.model?.policies ?? []) {
      if (policy.declaredIn !== info.name) continue;
      const policyId = typeId(`${info.name}.${policy.name}`);
      add('schema::AccessPolicy', {
        ...object(policy.name, false),
        id: policyId,
        ...subclassable(false),
        subject: id,
        condition: null,
        action: policy.action === 'allow' ? 'Allow' : 'Deny',
        expr: null,
        errmessage: policy.errmessage,
      });
      for (const kind of policy.kinds) {
        const spelled = kind
          .split(/[\s_]+/)
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
          .join('');
        link('schema::AccessPolicy', 'access_kinds', policyId, spelled);
      }
      link('schema::ObjectType', 'access_policies', id, policyId);
    }
  };

  for (const info of index.objectTypes) if (!seen.has(`rows:${info.name}`)) objectTypeRow(info);

  // Scalar types: the standard library's and the schema's own.
  for (const name of STD_SCALARS) {
    const spelled = catalogueTypeName({ kind: 'scalar', name });
    seen.add(spelled);
    add('schema::ScalarType', {
      ...object(spelled, true),
      ...subclassable(false),
      ...typeFields,
      default: null,
    });
  }
  for (const s of index.schema.scalarTypes) {
    seen.add(s.name);
    const id = typeId(s.name);
    add('schema::ScalarType', {
      ...object(s.name, false),
      ...subclassable(s.abstract),
      ...typeFields,
      default: null,
    });
    const base = catalogueTypeName({ kind: 'scalar', name: s.base });
    link('schema::ScalarType', 'bases', id, typeId(base), { index: 0 });
    let ancestor: string | undefined = s.base;
    for (let i = 0; ancestor !== undefined && i < 64; i++) {
      link(
        'schema::ScalarType',
        'ancestors',
        id,
        typeId(catalogueTypeName({ kind: 'scalar', name: ancestor })),
        {
          index: i,
        },
      );
      ancestor = index.scalar(ancestor)?.base;
    }
    for (const [key, value] of Object.entries(s.annotations)) {
      link('schema::ScalarType', 'annotations', id, typeId(key), { value, owned: true });
    }
  }

  // Arrays and ranges of every std scalar (the standard library's own signatures use them).
  for (const name of STD_SCALARS) typeRow({ kind: 'array', element: { kind: 'scalar', name } });
  for (const name of RANGE_ELEMENTS) typeRow({ kind: 'range', element: { kind: 'scalar', name } });
  for (const name of RANGE_ELEMENTS)
    typeRow({ kind: 'multirange', element: { kind: 'scalar', name } });

  // A view's pointers: its object type's, then the elements its shape adds or changes.
  const viewPointers = (owner: string, ownerId: string, view: CatalogueView) => {
    const own = new Set(view.elements.map((e) => e.name));
    for (const p of index.objectType(view.base)?.pointers.values() ?? []) {
      if (!own.has(p.name)) pointerRows(owner, ownerId, p, false, 'schema::ObjectType');
    }
    for (const e of view.elements) {
      const p: PointerInfo = {
        name: e.name,
        kind: e.kind,
        required: e.required,
        many: e.many,
        target: e.type,
        computed: null,
        declaredIn: owner,
        properties: new Map(),
        model: null,
      };
      pointerRows(owner, ownerId, p, false, 'schema::ObjectType');
    }
  };
  // A view type's row (from_alias), based on its object type, and its elements' views.
  const viewRows = (view: CatalogueView) => {
    const id = typeId(view.name);
    add('schema::ObjectType', {
      ...object(view.name, false),
      ...subclassable(false),
      expr: null,
      from_alias: true,
      is_from_alias: true,
      compound_type: false,
      is_compound_type: false,
    });
    link('schema::ObjectType', 'bases', id, typeId(view.base), { index: 0 });
    viewPointers(view.name, id, view);
    for (const e of view.elements) if (e.view) viewRows(e.view);
  };

  // Aliases: a type of their own each (from_alias), based on the type of their expression.
  for (const alias of aliases) {
    const fromAlias = (name: string) => ({
      ...object(name, false),
      ...subclassable(false),
      expr: null,
      from_alias: true,
      is_from_alias: true,
    });
    const id = typeId(alias.name);
    const base = typeRow(alias.type);
    const kind = catalogueTypeOf(alias.type);
    const t = alias.type;
    if (t.kind === 'scalar') add(kind, { ...fromAlias(alias.name), default: null });
    else if (t.kind === 'array' || t.kind === 'range' || t.kind === 'multirange') {
      add(kind, { ...fromAlias(alias.name), element_type: typeRow(t.element) });
    } else if (t.kind === 'tuple') {
      add(kind, { ...fromAlias(alias.name), named: t.elements.some((e) => e.name !== null) });
      for (const [i, e] of t.elements.entries()) {
        const elementId = typeId(`${alias.name}[${i}]`);
        add('schema::TupleElement', {
          id: elementId,
          type: typeRow(e.type),
          name: e.name ?? String(i),
        });
        link(kind, 'element_types', id, elementId, { index: i });
      }
    } else {
      add(kind, { ...fromAlias(alias.name), compound_type: false, is_compound_type: false });
      if (alias.view) {
        viewRows(alias.view);
        viewPointers(alias.name, id, alias.view);
      } else if (t.kind === 'object') {
        viewPointers(alias.name, id, { name: alias.name, base: t.name, elements: [] });
      }
    }
    if (kind === 'schema::ObjectType' || kind === 'schema::ScalarType') {
      link(kind, 'bases', id, base, { index: 0 });
    }
  }

  // Annotations: the standard ones and the schema's.
  const annotations = new Map<string, boolean>(STD_ANNOTATIONS.map((a) => [a, true]));
  for (const a of index.schema.annotations) annotations.set(a.name, a.inheritable);
  for (const [name, inheritable] of [...annotations].sort()) {
    add('schema::Annotation', {
      ...object(name, STD_ANNOTATIONS.includes(name)),
      inheritable,
    });
  }

  // Modules.
  for (const name of [...index.modules].sort()) {
    add('schema::Module', {
      ...object(name, name !== 'default' && !index.schema.modules.includes(name)),
      id: typeId(`module:${name}`),
    });
  }
  return { rows, junctions };
}
