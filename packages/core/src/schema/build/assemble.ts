/**
 * build/assemble: drafts → the immutable, JSON-safe `Schema` of model.ts.
 *
 * Input: a fully validated context. Output: the `Schema`, every list sorted by name (functions
 * by name, then signature), pointers in their flattened order.
 * Invariant: no draft object escapes; every pointer is a fresh plain object.
 */
import type { Global, ObjectType, Pointer, Schema } from '../../model/schema';
import type { BuildContext, ObjectDraft, PointerDraft } from './context';
import { functionDefs } from './functions';
import { abstractConstraints } from './validate';

const byName = <T extends { name: string }>(a: T, b: T) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function pointer(p: PointerDraft): Pointer {
  // Only a stored link has deletion policies; Gel's defaults are restrict and allow.
  const stored = p.kind === 'link' && p.computed === null;
  return {
    name: p.name,
    kind: p.kind,
    required: p.required,
    cardinality: p.cardinality,
    target: p.target as NonNullable<PointerDraft['target']>,
    computed: p.computed,
    default: p.default,
    readonly: p.readonly,
    splatStrategy: p.splatStrategy,
    constraints: [...p.constraints],
    annotations: { ...p.annotations },
    onTargetDelete: stored ? (p.onTargetDelete ?? 'restrict') : null,
    onSourceDelete: stored ? (p.onSourceDelete ?? 'allow') : null,
    properties: p.properties.map(pointer),
    declaredIn: p.declaredIn,
    span: p.span,
  };
}

function objectType(d: ObjectDraft): ObjectType {
  return {
    name: d.name,
    abstract: d.node.abstract,
    bases: [...d.bases],
    ancestors: [...d.ancestors],
    pointers: d.pointers.map(pointer),
    constraints: [...d.constraints],
    indexes: [...d.indexes],
    policies: [...d.policies],
    annotations: { ...d.annotations },
    span: d.node.span,
  };
}

export function assemble(ctx: BuildContext): Schema {
  const globals: Global[] = [...ctx.globals.values()].map((g) => ({
    name: g.name,
    target: g.target as NonNullable<typeof g.target>,
    required: g.required,
    cardinality: g.cardinality,
    default: g.default,
    computed: g.computed,
    annotations: g.annotations,
    span: g.node.span,
  }));
  const functions = functionDefs(ctx).sort(
    (a, b) => byName(a, b) || (a.span?.start.offset ?? 0) - (b.span?.start.offset ?? 0),
  );
  return {
    modules: [...ctx.modules].sort(),
    objectTypes: [...ctx.objectTypes.values()].map(objectType).sort(byName),
    scalarTypes: [...ctx.scalars.values()].sort(byName),
    globals: globals.sort(byName),
    functions,
    aliases: [...ctx.aliases.values()]
      .map((a) => ({ name: a.name, expr: a.expr, span: a.node.span }))
      .sort(byName),
    constraints: abstractConstraints(ctx).sort(byName),
    annotations: [...ctx.annotations.values()].sort(byName),
  };
}
