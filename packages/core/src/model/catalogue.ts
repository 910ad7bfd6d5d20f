/**
 * model/catalogue: the type catalogue of `GET /schema/types` (docs/http.md): every type with its
 * properties, links, cardinalities, constraints, indexes, annotations and policies, as plain JSON
 * with EdgeQL type names and expressions printed back as EdgeQL text.
 */
import { printExpression } from '../syntax';
import {
  printTypeRef,
  type Constraint,
  type ObjectType,
  type Pointer,
  type Schema,
} from './schema';

/** What a type without access policies allows a caller subject to them (query/api). */
export type DefaultAccess = 'open' | 'deny';

/**
 * True when every caller (anonymous ones included) may read and write objects of `type` under
 * `defaultAccess`: it has no access policy (its own or inherited) and the default is `open`.
 */
export function openToEveryone(type: ObjectType, defaultAccess: DefaultAccess): boolean {
  return defaultAccess === 'open' && type.policies.length === 0;
}

/** The concrete object types open to every caller (the server's start-up warning names them). */
export function openObjectTypes(schema: Schema, defaultAccess: DefaultAccess): string[] {
  return schema.objectTypes
    .filter((t) => !t.abstract && openToEveryone(t, defaultAccess))
    .map((t) => t.name);
}

export interface CataloguePointer {
  name: string;
  target: string;
  required: boolean;
  cardinality: 'One' | 'Many';
  readonly: boolean;
  computed: string | null;
  default: string | null;
  constraints: string[];
  annotations: Record<string, string>;
  inheritedFrom: string | null;
}

export interface CatalogueLink extends CataloguePointer {
  onTargetDelete: string | null;
  properties: CataloguePointer[];
}

export interface CatalogueType {
  name: string;
  abstract: boolean;
  bases: string[];
  properties: CataloguePointer[];
  links: CatalogueLink[];
  constraints: string[];
  indexes: string[];
  annotations: Record<string, string>;
  /** Reachable by every caller: no access policy and `defaultAccess` open. */
  open: boolean;
  policies: Array<{
    name: string;
    action: string;
    kinds: string[];
    when: string | null;
    using: string | null;
  }>;
}

export interface TypeCatalogue {
  version: string;
  types: CatalogueType[];
  scalars: Array<{
    name: string;
    base: string;
    enumValues: string[] | null;
    constraints: string[];
    annotations: Record<string, string>;
  }>;
  globals: Array<{
    name: string;
    target: string;
    required: boolean;
    cardinality: 'One' | 'Many';
    computed: boolean;
  }>;
  functions: Array<{
    name: string;
    params: Array<{ name: string; type: string; kind: string; optional: boolean }>;
    returns: string;
  }>;
}

function printConstraint(c: Constraint): string {
  const args = c.args.length ? `(${c.args.map(printExpression).join(', ')})` : '';
  const on = c.subjectExpr ? ` on (${printExpression(c.subjectExpr)})` : '';
  return `${c.name}${args}${on}`;
}

function pointer(p: Pointer, owner: string): CataloguePointer {
  return {
    name: p.name,
    target: printTypeRef(p.target),
    required: p.required,
    cardinality: p.cardinality === 'one' ? 'One' : 'Many',
    readonly: p.readonly,
    computed: p.computed ? printExpression(p.computed) : null,
    default: p.default ? printExpression(p.default) : null,
    constraints: p.constraints.map(printConstraint),
    annotations: { ...p.annotations },
    inheritedFrom: p.declaredIn === owner ? null : p.declaredIn,
  };
}

export function describeSchema(
  schema: Schema,
  version: string,
  options: { readonly defaultAccess?: DefaultAccess } = {},
): TypeCatalogue {
  const defaultAccess = options.defaultAccess ?? 'open';
  return {
    version,
    types: schema.objectTypes.map((t) => ({
      name: t.name,
      abstract: t.abstract,
      bases: [...t.bases],
      properties: t.pointers.filter((p) => p.kind === 'property').map((p) => pointer(p, t.name)),
      links: t.pointers
        .filter((p) => p.kind === 'link')
        .map((p) => ({
          ...pointer(p, t.name),
          onTargetDelete: p.onTargetDelete,
          properties: p.properties.map((lp) => pointer(lp, t.name)),
        })),
      constraints: t.constraints.map(printConstraint),
      indexes: t.indexes.map((i) => printExpression(i.expr)),
      annotations: { ...t.annotations },
      open: openToEveryone(t, defaultAccess),
      policies: t.policies.map((p) => ({
        name: p.name,
        action: p.action,
        kinds: [...p.kinds],
        when: p.when ? printExpression(p.when) : null,
        using: p.using ? printExpression(p.using) : null,
      })),
    })),
    scalars: schema.scalarTypes.map((s) => ({
      name: s.name,
      base: s.base,
      enumValues: s.enumValues ? [...s.enumValues] : null,
      constraints: s.constraints.map(printConstraint),
      annotations: { ...s.annotations },
    })),
    globals: schema.globals.map((g) => ({
      name: g.name,
      target: printTypeRef(g.target),
      required: g.required,
      cardinality: g.cardinality === 'one' ? 'One' : 'Many',
      computed: g.computed !== null,
    })),
    functions: schema.functions.map((f) => ({
      name: f.name,
      params: f.params.map((p) => ({
        name: p.name,
        type: printTypeRef(p.type),
        kind: p.kind,
        optional: p.typeModifier === 'optional',
      })),
      returns: `${f.returnModifier ? `${f.returnModifier} ` : ''}${printTypeRef(f.returnType)}`,
    })),
  };
}
