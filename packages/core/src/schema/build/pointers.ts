/**
 * build/pointers: the properties and links of every object type, flattened through inheritance.
 *
 * Input: object type drafts with bases and ancestors resolved. Output: `draft.pointers` for each
 * type: `id` first, then the pointers of its bases (in the order of `extending`, each base's
 * list already flattened, so ancestors come first), then its own new pointers. An inherited,
 * unchanged pointer is the same draft object in every type, so inferring a computed once (in
 * the type that declared it) serves all its subtypes.
 * Rules (Gel's): redeclaring an inherited pointer needs `overloaded` unless the redeclaration is
 * identical; `overloaded` needs an inherited pointer; an overload may narrow a link's target to
 * a subtype (a property's to a scalar extending it) but not widen it, nor make a required
 * pointer optional; one name inherited from two bases must agree on kind and target.
 * A computed's target and, for the current syntax, its kind are set later by computed.ts (bound by the query binder).
 */
import { printTypeRef, SPLAT_STRATEGIES, type SplatStrategy } from '../../model/schema';
import type * as ql from '../../syntax';
import {
  DuplicateDefinitionError,
  InvalidDefinitionError,
  InvalidLinkDefinitionError,
  InvalidPropertyDefinitionError,
  InvalidReferenceError,
  SchemaDefinitionError,
} from '../../errors';
import type { Constraint, TypeRef } from '../../model/schema';
import { annotationsOf, inheritableOf } from './annotations';
import {
  attempt,
  fail,
  settle,
  type BuildContext,
  type Decl,
  type ObjectDraft,
  type PointerDraft,
} from './context';
import { constraintOf } from './constraints';
import { candidates, isSubtype, resolveType } from './resolve';
import { UUID, containsObject, sameType } from './types';

export function buildPointers(ctx: BuildContext): void {
  for (const draft of ctx.objectTypes.values()) attempt(ctx, () => flatten(ctx, draft));
  settle(ctx);
}

/** `id` of object type `type` (also of the roots, `std::BaseObject` and `std::Object`). */
export function idPointer(type: string, module: string): PointerDraft {
  const exclusive: Constraint = {
    name: 'std::exclusive',
    args: [],
    subjectExpr: null,
    except: null,
    delegated: false,
    errmessage: null,
    declaredIn: type,
    span: null,
  };
  return {
    name: 'id',
    kind: 'property',
    required: true,
    cardinality: 'one',
    target: UUID,
    computed: null,
    default: null,
    readonly: true,
    splatStrategy: 'Default',
    constraints: [exclusive],
    annotations: {},
    onTargetDelete: null,
    onSourceDelete: null,
    properties: [],
    declaredIn: type,
    home: type,
    span: null,
    node: null,
    module: module,
    declaredCardinality: 'one',
    declaredRequired: true,
    inference: 'done',
    ownerLink: null,
  };
}

export const errorClassFor = (kind: 'property' | 'link' | null) =>
  kind === 'link' ? InvalidLinkDefinitionError : InvalidPropertyDefinitionError;

/**
 * A type's pointers, its bases' first. A pointer the type declares wrongly is reported and left
 * out (`attempt`), and the type is marked `failed`: its subtypes are then not flattened at all,
 * since their errors would be echoes of its gaps.
 */
function flatten(ctx: BuildContext, draft: ObjectDraft): void {
  if (draft.state !== 'new') return;
  draft.state = 'building';
  try {
    flattenOwn(ctx, draft);
  } catch (err) {
    draft.state = 'failed';
    throw err;
  }
}

function flattenOwn(ctx: BuildContext, draft: ObjectDraft): void {
  for (const base of draft.bases) flatten(ctx, ctx.objectTypes.get(base) as ObjectDraft);
  if (draft.bases.some((b) => ctx.objectTypes.get(b)?.state === 'failed')) {
    draft.state = 'failed';
    return;
  }
  const byName = new Map<string, PointerDraft>();
  const order: string[] = [];
  if (draft.bases.length === 0) {
    byName.set('id', idPointer(draft.name, draft.module));
    order.push('id');
  }
  for (const baseName of draft.bases) {
    const base = ctx.objectTypes.get(baseName) as ObjectDraft;
    for (const pointer of base.pointers) {
      const existing = byName.get(pointer.name);
      if (!existing) {
        byName.set(pointer.name, pointer);
        order.push(pointer.name);
      } else if (existing !== pointer && !(existing.node === null && pointer.node === null)) {
        // Two roots each synthesise their own `id`; those are the same pointer.
        byName.set(pointer.name, mergeInherited(ctx, draft, existing, pointer));
      }
    }
  }
  const own = new Set<string>();
  const errorsBefore = ctx.errors.length;
  for (const member of draft.node.members) {
    if (member.kind !== 'PointerDecl') continue;
    attempt(ctx, () => ownPointer(ctx, draft, member, own, byName, order));
  }
  draft.pointers = order.map((n) => byName.get(n) as PointerDraft);
  draft.state = ctx.errors.length > errorsBefore ? 'failed' : 'built';
}

/** One pointer `draft` declares, new or overloading an inherited one, into `byName`. */
function ownPointer(
  ctx: BuildContext,
  draft: ObjectDraft,
  member: ql.PointerDecl,
  own: Set<string>,
  byName: Map<string, PointerDraft>,
  order: string[],
): void {
  if (own.has(member.name)) {
    fail(
      DuplicateDefinitionError,
      `${member.pointerKind ?? 'pointer'} '${member.name}' of object type '${draft.name}' was already declared`,
      member.span,
    );
  }
  own.add(member.name);
  const inherited = byName.get(member.name);
  if (member.name === 'id' && !member.overloaded) {
    fail(
      InvalidPropertyDefinitionError,
      `cannot redefine 'id': every object type has it`,
      member.span,
    );
  }
  if (!inherited) {
    if (member.overloaded) {
      fail(
        SchemaDefinitionError,
        `'${member.name}' cannot be declared \`overloaded\` as there are no ancestors defining it`,
        member.span,
        'drop `overloaded`',
      );
    }
    byName.set(member.name, buildPointer(ctx, member, draft.name, draft.module, null));
    order.push(member.name);
    return;
  }
  const mine = buildPointer(ctx, member, draft.name, draft.module, null, inherited);
  if (!member.overloaded) {
    if (identical(mine, inherited, member)) return;
    fail(
      SchemaDefinitionError,
      `'${member.name}' must be declared using the \`overloaded\` keyword because it is defined in the following ancestor(s): ${ancestorsDefining(ctx, draft, member.name).join(', ')}`,
      member.span,
      `write: overloaded ${member.name} ...`,
    );
  }
  byName.set(member.name, overload(ctx, draft, mine, inherited, member));
}

function ancestorsDefining(ctx: BuildContext, draft: ObjectDraft, name: string): string[] {
  return draft.ancestors.filter((a) =>
    ctx.objectTypes.get(a)?.node.members.some((m) => m.kind === 'PointerDecl' && m.name === name),
  );
}

/**
 * Same name from two bases: the same kind and target, or an error. Object targets where one
 * extends the other merge to the narrower one (a diamond: `ObjectType01 extending ObjectType0,
 * ObjectType1` whose `target` links reach Target0 and its subtype Target1 links to Target1).
 */
function mergeInherited(
  ctx: BuildContext,
  draft: ObjectDraft,
  first: PointerDraft,
  second: PointerDraft,
): PointerDraft {
  const target = narrowerTarget(ctx, first.target, second.target);
  const targetsDiffer = first.target !== null && second.target !== null && target === null;
  const computedDiffer =
    (first.computed === null) !== (second.computed === null) || first.computed !== null;
  if (first.kind !== second.kind || targetsDiffer || computedDiffer) {
    const what =
      first.target && second.target
        ? ` (${printTypeRef(first.target)} and ${printTypeRef(second.target)})`
        : '';
    fail(
      errorClassFor(first.kind),
      `${first.kind} '${first.name}' is inherited from '${first.declaredIn}' and '${second.declaredIn}' with incompatible definitions${what}`,
      draft.node.name.span,
      `declare it in a common base, or give both the same type`,
    );
  }
  return {
    ...first,
    target: target ?? first.target,
    required: first.required || second.required,
    cardinality: first.cardinality === 'many' || second.cardinality === 'many' ? 'many' : 'one',
    constraints: [
      ...first.constraints,
      ...second.constraints.filter((c) => !first.constraints.includes(c)),
    ],
  };
}

/** The one of two targets the other includes (equal ones: either), or null. */
function narrowerTarget(ctx: BuildContext, a: TypeRef | null, b: TypeRef | null): TypeRef | null {
  if (a === null || b === null) return null;
  if (sameType(a, b)) return a;
  if (a.kind === 'object' && b.kind === 'object') {
    if (isSubtype(ctx, a.name, b.name)) return a;
    if (isSubtype(ctx, b.name, a.name)) return b;
  }
  return null;
}

/** A redeclaration that changes nothing needs no `overloaded`. */
function identical(mine: PointerDraft, inherited: PointerDraft, decl: ql.PointerDecl): boolean {
  return (
    decl.members.length === 0 &&
    decl.computed === null &&
    inherited.computed === null &&
    mine.kind === inherited.kind &&
    mine.target !== null &&
    inherited.target !== null &&
    sameType(mine.target, inherited.target) &&
    mine.required === inherited.required &&
    mine.cardinality === inherited.cardinality
  );
}

/** `overloaded`: the inherited pointer, changed where the redeclaration says so. */
function overload(
  ctx: BuildContext,
  draft: ObjectDraft,
  mine: PointerDraft,
  inherited: PointerDraft,
  decl: ql.PointerDecl,
): PointerDraft {
  const Err = errorClassFor(inherited.kind);
  if (decl.pointerKind !== null && decl.pointerKind !== inherited.kind) {
    fail(
      Err,
      `'${decl.name}' is a ${inherited.kind} in '${inherited.declaredIn}', not a ${decl.pointerKind}`,
      decl.span,
    );
  }
  if (
    mine.target !== null &&
    inherited.target !== null &&
    !narrows(ctx, mine.target, inherited.target)
  ) {
    fail(
      Err,
      `cannot redefine ${inherited.kind} '${decl.name}' of object type '${draft.name}' as '${printTypeRef(mine.target)}': it must be '${printTypeRef(inherited.target)}' or a subtype of it`,
      decl.target?.span ?? decl.span,
    );
  }
  if (decl.required === false && inherited.required) {
    fail(
      Err,
      `cannot make ${inherited.kind} '${decl.name}' of object type '${draft.name}' optional: its parent ${inherited.kind} '${decl.name}' of object type '${inherited.declaredIn}' is required`,
      decl.span,
    );
  }
  const properties = [...inherited.properties];
  for (const p of mine.properties) {
    const at = properties.findIndex((q) => q.name === p.name);
    if (at >= 0) properties[at] = overloadLinkProperty(properties[at] as PointerDraft, p);
    else properties.push(p);
  }
  return {
    ...inherited,
    target: mine.target ?? (mine.computed !== null ? null : inherited.target),
    required: decl.required ?? inherited.required,
    cardinality: mine.declaredCardinality ?? inherited.cardinality,
    declaredCardinality: mine.declaredCardinality ?? inherited.declaredCardinality,
    declaredRequired: decl.required ?? inherited.declaredRequired,
    computed: mine.computed ?? inherited.computed,
    default: mine.default ?? inherited.default,
    readonly: hasField(decl, 'readonly') ? mine.readonly : inherited.readonly,
    splatStrategy: hasField(decl, 'splat_strategy') ? mine.splatStrategy : inherited.splatStrategy,
    constraints: [...inherited.constraints, ...mine.constraints],
    annotations: { ...inheritableOf(ctx, inherited.annotations), ...mine.annotations },
    onTargetDelete: hasMember(decl, 'OnTargetDelete')
      ? mine.onTargetDelete
      : inherited.onTargetDelete,
    onSourceDelete: hasMember(decl, 'OnSourceDelete')
      ? mine.onSourceDelete
      : inherited.onSourceDelete,
    properties,
    span: decl.span,
    home: draft.name,
    node: decl,
    module: mine.module,
    inference: mine.computed !== null ? 'pending' : inherited.inference,
  };
}

/** A link property redeclared in an overloaded link: what the redeclaration leaves out (its
 * type, a default, required, cardinality, constraints) is the inherited property's. */
function overloadLinkProperty(inherited: PointerDraft, mine: PointerDraft): PointerDraft {
  return {
    ...mine,
    target: mine.target ?? (mine.computed !== null ? null : inherited.target),
    required: mine.declaredRequired ?? inherited.required,
    cardinality: mine.declaredCardinality ?? inherited.cardinality,
    declaredCardinality: mine.declaredCardinality ?? inherited.declaredCardinality,
    declaredRequired: mine.declaredRequired ?? inherited.declaredRequired,
    default: mine.default ?? inherited.default,
    constraints: [...inherited.constraints, ...mine.constraints],
  };
}

const hasField = (decl: ql.PointerDecl, name: string) =>
  decl.members.some((m) => m.kind === 'SetField' && m.name === name);
const hasMember = (decl: ql.PointerDecl, kind: ql.PointerMember['kind']) =>
  decl.members.some((m) => m.kind === kind);

/** An overload may narrow a target: a subtype of the link target, a scalar extending the type. */
function narrows(ctx: BuildContext, mine: TypeRef, inherited: TypeRef): boolean {
  if (sameType(mine, inherited)) return true;
  if (mine.kind === 'object' && inherited.kind === 'object')
    return isSubtype(ctx, mine.name, inherited.name);
  if (mine.kind === 'scalar' && inherited.kind === 'scalar') {
    for (let name: string | undefined = mine.name; name; name = ctx.scalars.get(name)?.base) {
      if (name === inherited.name) return true;
    }
  }
  return false;
}

const FIELDS: Record<string, true> = { default: true, readonly: true, splat_strategy: true };

/**
 * One declared pointer, own attributes only. `inherited` (when overloading) lends the kind a
 * target-less redeclaration keeps.
 */
export function buildPointer(
  ctx: BuildContext,
  decl: ql.PointerDecl,
  owner: string,
  module: string,
  ownerLink: PointerDraft | null,
  inherited?: PointerDraft,
): PointerDraft {
  const declaredKind = ownerLink !== null ? 'property' : decl.pointerKind;
  const Err = errorClassFor(declaredKind ?? inherited?.kind ?? null);
  const target = decl.target ? resolveType(ctx, decl.target, module, { nestedArray: Err }) : null;
  const using = decl.members.find((m): m is ql.Using => m.kind === 'Using');
  const computed = decl.computed ?? using?.expr ?? null;
  const kind =
    declaredKind ??
    (target ? (isLinkTarget(target) ? 'link' : 'property') : (inherited?.kind ?? 'property'));
  if (target) checkTarget(decl, kind, target, ownerLink !== null);
  const base = extendedPointer(ctx, decl, module, kind, owner);
  let fieldDefault: ql.Expr | null = null;
  let readonly = false;
  let splatStrategy: SplatStrategy | null = null;
  const constraints: Constraint[] = [...(base?.constraints ?? [])];
  for (const member of decl.members) {
    if (member.kind === 'SetField') {
      if (!FIELDS[member.name]) {
        fail(
          errorClassFor(kind),
          `unknown field '${member.name}' of ${kind} '${decl.name}'`,
          member.span,
          "a pointer takes default := ..., readonly := ... and splat_strategy := '...'",
        );
      }
      if (member.name === 'default') fieldDefault = member.value;
      else if (member.name === 'splat_strategy') splatStrategy = splatStrategyValue(member, kind);
      else readonly = readonlyValue(member, kind);
    } else if (member.kind === 'ConcreteConstraint') {
      constraints.push(constraintOf(ctx, member, module, owner));
    }
  }
  const draft: PointerDraft = {
    name: decl.name,
    kind,
    required: decl.required ?? false,
    cardinality: decl.cardinality === 'multi' ? 'many' : 'one',
    target,
    computed,
    default: fieldDefault ?? base?.default ?? null,
    readonly: readonly || (base?.readonly ?? false),
    splatStrategy: splatStrategy ?? base?.splatStrategy ?? 'Default',
    constraints,
    annotations: {
      ...(base ? inheritableOf(ctx, base.annotations) : {}),
      ...annotationsOf(ctx, decl.members, module),
    },
    onTargetDelete: null,
    onSourceDelete: null,
    properties: [],
    declaredIn: owner,
    home: owner,
    span: decl.span,
    node: decl,
    module,
    declaredCardinality:
      decl.cardinality === null ? null : decl.cardinality === 'multi' ? 'many' : 'one',
    declaredRequired: decl.required,
    inference: computed === null ? 'done' : 'pending',
    ownerLink,
  };
  for (const member of decl.members) {
    if (member.kind === 'OnTargetDelete') draft.onTargetDelete = member.action;
    if (member.kind === 'OnSourceDelete') draft.onSourceDelete = member.action;
  }
  const properties = [...(base?.properties ?? [])];
  for (const member of decl.members) {
    if (member.kind !== 'PointerDecl') continue;
    if (properties.some((p) => p.name === member.name && p.declaredIn === owner)) {
      fail(
        DuplicateDefinitionError,
        `link property '${member.name}' of link '${decl.name}' was already declared`,
        member.span,
      );
    }
    const at = properties.findIndex((p) => p.name === member.name);
    const prop = buildPointer(ctx, member, owner, module, draft);
    if (at >= 0) properties[at] = prop;
    else properties.push(prop);
  }
  draft.properties = properties;
  return draft;
}

/** An object type anywhere at the top of the target makes a link; collections stay properties. */
export const isLinkTarget = (target: TypeRef): boolean =>
  target.kind === 'object' || target.kind === 'union';

function checkTarget(
  decl: ql.PointerDecl,
  kind: 'property' | 'link',
  target: TypeRef,
  linkProperty: boolean,
): void {
  const span = decl.target?.span ?? decl.span;
  if (kind === 'property' && containsObject(target)) {
    const what = isLinkTarget(target) ? 'object type' : 'collection';
    fail(
      InvalidPropertyDefinitionError,
      `invalid ${linkProperty ? 'link property' : 'property'} type: expected a scalar type, or a scalar collection, got ${what} '${printTypeRef(target)}'`,
      span,
      linkProperty
        ? 'link properties hold scalars'
        : `declare it as a link: link ${decl.name}: ${printTypeRef(target)}`,
    );
  }
  if (kind === 'link' && !isLinkTarget(target)) {
    fail(
      InvalidLinkDefinitionError,
      `invalid link target type, expected object type, got ${target.kind === 'scalar' ? 'scalar type' : 'collection'} '${printTypeRef(target)}'`,
      span,
      `declare it as a property: property ${decl.name}: ${printTypeRef(target)}`,
    );
  }
}

function readonlyValue(field: ql.SetField, kind: 'property' | 'link'): boolean {
  const v = field.value;
  if (v.kind !== 'Constant' || v.scalar !== 'bool') {
    return fail(errorClassFor(kind), 'readonly must be true or false', v.span);
  }
  return v.value === 'true';
}

function splatStrategyValue(field: ql.SetField, kind: 'property' | 'link'): SplatStrategy {
  const v = field.value;
  const found =
    v.kind === 'Constant' && v.scalar === 'str'
      ? SPLAT_STRATEGIES.find((s) => s.toLowerCase() === v.value.toLowerCase())
      : undefined;
  if (!found) {
    return fail(
      errorClassFor(kind),
      `splat_strategy must be one of ${SPLAT_STRATEGIES.map((s) => `'${s}'`).join(', ')}`,
      v.span,
    );
  }
  return found;
}

/** `link friends extending friendship -> Person`: what the abstract pointer lends. */
function extendedPointer(
  ctx: BuildContext,
  decl: ql.PointerDecl,
  module: string,
  kind: 'property' | 'link',
  owner: string,
): PointerDraft | null {
  let merged: PointerDraft | null = null;
  for (const ext of decl.extending) {
    const names = candidates(ext.name, module);
    const found = names.map((n) => ctx.abstractPointers.get(n)).find((d) => d !== undefined);
    if (!found || (found.node.pointerKind ?? kind) !== kind) {
      fail(
        InvalidReferenceError,
        `${kind} '${names[0] ?? ext.name.name}' does not exist`,
        ext.span,
        found
          ? `'${found.name}' is an abstract ${found.node.pointerKind}`
          : `declare it: abstract ${kind} ${ext.name.name} { ... }`,
      );
    }
    merged = abstractPointerDraft(ctx, found, owner);
  }
  return merged;
}

/** Built as if declared in `owner`, so its link properties and constraints belong there. */
function abstractPointerDraft(
  ctx: BuildContext,
  decl: Decl<ql.PointerDecl>,
  owner: string,
): PointerDraft {
  if (decl.node.target !== null || decl.node.computed !== null) {
    fail(InvalidDefinitionError, 'an abstract pointer has no target', decl.node.span);
  }
  const node = { ...decl.node, target: null } as ql.PointerDecl;
  return buildPointer(ctx, node, owner, decl.module, null);
}
