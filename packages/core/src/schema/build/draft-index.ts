/**
 * build/draft-index: the schema being built as the query binder sees it — a `SchemaIndex`
 * (query/schema-index) over a view of the drafts, so computeds, aliases and computed globals are
 * typed by the query binder while the schema is still being built.
 *
 * Input: a context whose types, pointers, functions and globals are in place (after
 * `buildObjectMembers`). Output: one index per context (memoised), over a `Schema` whose
 * pointers and globals are views of their drafts: a computed's kind, cardinality and target (a
 * computed global's target and cardinality) are read when first asked for, which finishes the
 * draft then (./computed: binds its expression through this same index). A computed that is
 * asked for while being finished is a cycle: Gel's `InvalidDefinitionError`, raised there.
 * Invariant: the view reads the drafts live, so a finished draft is seen at once; nothing here
 * is kept in the final schema (./assemble copies the drafts).
 */
import type { Global, ObjectType, Pointer, Schema, TypeRef } from '../../model/schema';
import { schemaIndex, type SchemaIndex } from '../../query/schema-index';
import type { BuildContext, GlobalDraft, ObjectDraft, PointerDraft } from './context';
import { finishComputed, finishGlobal } from './computed';
import { functionDefs } from './functions';

const indexes = new WeakMap<BuildContext, SchemaIndex>();
/** The draft behind each pointer view. */
const drafts = new WeakMap<Pointer, PointerDraft>();

/** The index of the schema `ctx` is building (built on first use). */
export function draftIndex(ctx: BuildContext): SchemaIndex {
  let index = indexes.get(ctx);
  if (!index) {
    const base = schemaIndex(draftSchema(ctx));
    const readable = (link: Pointer) => drafts.get(link)?.inference !== 'running';
    index = { ...base, backlinks: (name, target) => base.backlinks(name, target, readable) };
    indexes.set(ctx, index);
  }
  return index;
}

function pointerView(ctx: BuildContext, d: PointerDraft): Pointer {
  const finished = (): PointerDraft => {
    if (d.inference !== 'done') finishComputed(ctx, d);
    return d;
  };
  const view: Pointer = {
    name: d.name,
    // A declared kind is known before the expression is bound (a backlink looks for links by
    // kind: `.<parent` reading a computed `link parent := ...` must not bind it first).
    get kind() {
      return d.ownerLink !== null || d.node?.pointerKind ? d.kind : finished().kind;
    },
    get required() {
      return finished().required;
    },
    get cardinality() {
      return finished().cardinality;
    },
    get target() {
      return finished().target as TypeRef;
    },
    computed: d.computed,
    default: d.default,
    readonly: d.readonly,
    splatStrategy: d.splatStrategy,
    constraints: d.constraints,
    annotations: d.annotations,
    onTargetDelete: d.onTargetDelete,
    onSourceDelete: d.onSourceDelete,
    properties: d.properties.map((lp) => pointerView(ctx, lp)),
    declaredIn: d.declaredIn,
    span: d.span,
  };
  drafts.set(view, d);
  return view;
}

function objectView(
  ctx: BuildContext,
  d: ObjectDraft,
  views: Map<PointerDraft, Pointer>,
): ObjectType {
  const view = (p: PointerDraft): Pointer => {
    let found = views.get(p);
    if (!found) {
      found = pointerView(ctx, p);
      views.set(p, found);
    }
    return found;
  };
  return {
    name: d.name,
    abstract: d.node.abstract,
    bases: d.bases,
    ancestors: d.ancestors,
    pointers: d.pointers.map(view),
    constraints: d.constraints,
    indexes: d.indexes,
    policies: d.policies,
    annotations: d.annotations,
    span: d.node.span,
  };
}

function globalView(ctx: BuildContext, g: GlobalDraft): Global {
  const finished = (): GlobalDraft => {
    if (g.inference !== 'done') finishGlobal(ctx, g);
    return g;
  };
  return {
    name: g.name,
    get target() {
      return finished().target as TypeRef;
    },
    get required() {
      return finished().required;
    },
    get cardinality() {
      return finished().cardinality;
    },
    get default() {
      return finished().default;
    },
    get computed() {
      return finished().computed;
    },
    annotations: g.annotations,
    span: g.node.span,
  };
}

function draftSchema(ctx: BuildContext): Schema {
  // An inherited pointer is one draft in every subtype: one view of it.
  const views = new Map<PointerDraft, Pointer>();
  return {
    modules: [...ctx.modules],
    objectTypes: [...ctx.objectTypes.values()].map((d) => objectView(ctx, d, views)),
    scalarTypes: [...ctx.scalars.values()],
    globals: [...ctx.globals.values()].map((g) => globalView(ctx, g)),
    functions: functionDefs(ctx),
    aliases: [...ctx.aliases.values()].map((a) => ({
      name: a.name,
      expr: a.expr,
      span: a.node.span,
    })),
    constraints: [],
    annotations: [...ctx.annotations.values()],
  };
}
