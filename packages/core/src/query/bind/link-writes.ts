/**
 * bind/link-writes: the link properties written with a link's targets. They are written as
 * `@p := expr` in the value's shape (`tags := (select Tag { @weight := 1 } filter ...)`), each
 * bound with one target as `.`; each element of a set literal or union, and each branch of an
 * if/else, carries its own (the value's parts, query/ir `ValuePart`); `@p := x` anywhere else in
 * the value (a `for` body, a function argument, a nested insert's shape) rides on the value's own
 * shapes and goes with each element the value yields (a carried part); an unknown property is
 * InvalidReferenceError.
 */
import { pathIdOf, rootKeyOf } from '../ir';
import type * as ql from '../../syntax';
import {
  InvalidReferenceError,
  InvalidTypeError,
  QueryCardinalityError,
  QueryError,
} from '../../errors';
import {
  EMPTY,
  cardEither,
  cardProduct,
  cardUnion,
  type Card,
  type IrExpr,
  type IrType,
} from '../ir';
import type { ValuePart } from '../ir';
import type { PointerInfo } from '../schema-index';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { subjectScope, withPathId } from './names';
import { emptyArrayOf, unifyTypes } from './operators';
import { elementScope } from './dunder-default';
import { printIrType } from './types';
import { SINGLE_VALUE_HINT, conform, linkPropertyDefault } from './mutation-elements';

/** A part of a link's value before its link properties are bound: the value (wrapped in the
 * if/else conditions it sits under) and its `@p := x` elements. */
interface RawPart {
  readonly value: IrExpr;
  readonly props: readonly ql.ShapeElement[];
  /** The subject the value selects by name (`select Card ...`, `select U2 ...` of a `with`
   * alias), as a key of `Scope.pathAliases`: inside its `@p := ...`, that name is the element
   * itself, as it is inside any shape on it (Gel's path factoring). */
  readonly root: string | null;
  /** The link properties written on the value's own shapes (see ValuePart.carried), by name. */
  readonly carried?: ReadonlySet<string>;
}

/** `Card`, `select Card ...`, `Card { ... }` (also `detached Card`) → the type name written as
 * the subject. */
function subjectTypeName(node: ql.Expr): ql.ObjectRef | null {
  if (node.kind === 'SelectQuery' || node.kind === 'Detached')
    return subjectTypeName(node.kind === 'Detached' ? node.expr : node.result);
  if (node.kind === 'Shape') return node.subject ? subjectTypeName(node.subject) : null;
  if (node.kind === 'ObjectRef') return node;
  if (node.kind === 'Path' && node.steps.length === 0 && node.subject)
    return subjectTypeName(node.subject);
  return null;
}

/**
 * A link's value written with link properties → its parts (Gel's rule: each element of a set
 * literal, union or if/else branch carries the link properties written on it), each with its
 * link properties bound against one of its elements, and the whole value (their union).
 */
export function bindValueParts(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { value: IrExpr; linkProperties: PointerInfo[]; parts: ValuePart[] } {
  const { parts: raw, card } = rawParts(ctx, scope, pointer, node);
  const linkProperties: PointerInfo[] = [];
  for (const part of raw) {
    for (const name of part.carried ?? []) {
      const property = pointer.properties.get(name) as PointerInfo;
      if (!linkProperties.includes(property)) linkProperties.push(property);
    }
    const seen = new Set<string>();
    for (const prop of part.props) {
      const name = (prop.path[0] as ql.Ptr).name;
      const property = pointer.properties.get(name);
      if (!property) return unknownLinkProperty(pointer, name, prop.span);
      if (property.computed)
        return fail(QueryError, `cannot assign to computed link property '@${name}'`, prop.span);
      if (seen.has(name)) return fail(QueryError, `'@${name}' is assigned twice`, prop.span);
      seen.add(name);
      if (!linkProperties.includes(property)) linkProperties.push(property);
    }
  }
  const parts: ValuePart[] = raw.map((part) => {
    const value = withPathId(ctx, scope, part.value);
    if (part.carried) {
      const carried = part.carried;
      return {
        value,
        pathId: pathIdOf(value) as string,
        props: linkProperties.map((p) => linkPropertyDefault(ctx, pointer, p, node.span)),
        carried: linkProperties.map((p) => (carried.has(p.name) ? `@${p.name}` : null)),
      };
    }
    const subjectScoped = subjectScope(scope, value, null);
    const targetScope: Scope =
      part.root === null
        ? subjectScoped
        : {
            ...subjectScoped,
            pathAliases: new Map([
              ...subjectScoped.pathAliases,
              [part.root, subjectScoped.subject as IrExpr],
            ]),
          };
    const props = linkProperties.map((property) => {
      const prop = part.props.find((p) => (p.path[0] as ql.Ptr).name === property.name);
      if (!prop) return linkPropertyDefault(ctx, pointer, property, node.span);
      const propScope = elementScope(ctx, targetScope, property, prop.compExpr as ql.Expr, pointer);
      return conform(
        ctx,
        property,
        emptyArrayOf(prop.compExpr as ql.Expr, property.target) ??
          bindExpr(ctx, propScope, prop.compExpr as ql.Expr),
        `${pointer.name}@${property.name}`,
        prop.span,
      );
    });
    return { value, pathId: pathIdOf(value) as string, props };
  });
  const values = parts.map((p) => p.value);
  let value = values[0] as IrExpr;
  if (values.length > 1) {
    let irType: IrType = value.type;
    for (const v of values.slice(1)) irType = unifyTypes(ctx, irType, v.type, node.span);
    value = { kind: 'SetLiteral', type: irType, card, elements: values };
  }
  return { value, linkProperties, parts };
}

/** The parts of a link's value: set literal elements and union operands, flattened; each branch
 * of an if/else, kept to the rows where its condition holds; anything else is one part. Link
 * properties under any other form (a `for` body, a function's argument) make a carried part. */
function rawParts(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { parts: RawPart[]; card: Card } {
  const union = (of: readonly ql.Expr[]) => {
    const each = of.map((e) => rawParts(ctx, scope, pointer, e));
    return {
      parts: each.flatMap((e) => e.parts),
      card: each.map((e) => e.card).reduce<Card>((a, b) => cardUnion(a, b), EMPTY),
    };
  };
  if (node.kind === 'SetLiteral') return union(node.elements);
  if (node.kind === 'BinOp' && node.op === 'union') return union([node.left, node.right]);
  if (node.kind === 'IfElse') {
    const condition = bindExpr(ctx, scope, node.condition);
    if (!(condition.type.kind === 'scalar' && condition.type.name === 'std::bool')) {
      return fail(
        InvalidTypeError,
        `expected a bool, got '${printIrType(condition.type)}'`,
        node.condition.span,
      );
    }
    if (condition.card.max === 'many') {
      // Each branch's rows are kept where the condition holds: one condition per written object.
      return fail(
        QueryCardinalityError,
        `cannot write link property ${nestedLinkProperty(node)} of '${pointer.name}' under an if/else whose condition may be more than one boolean`,
        node.condition.span,
        SINGLE_VALUE_HINT,
      );
    }
    const branch = (part: RawPart, then: boolean): RawPart => {
      const empty: IrExpr = {
        kind: 'SetLiteral',
        type: part.value.type,
        card: EMPTY,
        elements: [],
      };
      const card: Card = { min: 0, max: part.value.card.max };
      return {
        value: {
          kind: 'IfElse',
          type: part.value.type,
          card,
          condition,
          then: then ? part.value : empty,
          else: then ? empty : part.value,
        },
        props: part.props,
        root: null,
      };
    };
    const guarded = (when: boolean): Scope => ({
      ...scope,
      guards: [...(scope.guards ?? []), { expr: condition, when }],
    });
    const then = rawParts(ctx, guarded(true), pointer, node.ifExpr);
    const otherwise = rawParts(ctx, guarded(false), pointer, node.elseExpr);
    return {
      parts: [
        ...then.parts.map((p) => branch(p, true)),
        ...otherwise.parts.map((p) => branch(p, false)),
      ],
      card: cardProduct(condition.card, cardEither(then.card, otherwise.card)),
    };
  }
  const { expr, props } = splitLinkProperties(node);
  if (nestedLinkProperty(expr) !== null) return carriedPart(ctx, scope, pointer, node);
  const bound = bindExpr(ctx, scope, expr);
  const value = props.length > 0 && bound.kind === 'Shape' ? bound.subject : bound;
  const named = props.length > 0 ? subjectTypeName(expr) : null;
  const subject =
    named && value.type.kind === 'object'
      ? bindExpr(ctx, { ...scope, inserting: undefined }, named)
      : null;
  // A type is aliased by its name (as `bindName` looks it up), a `with` alias by its path id.
  const root =
    subject === null || subject.type.kind !== 'object'
      ? null
      : subject.kind === 'TypeRoot'
        ? subject.objectType
        : rootKeyOf(pathIdOf(subject) as string);
  return { parts: [{ value, props, root }], card: bound.card };
}

/**
 * A value whose link properties are written inside it (a `for` body, a function's argument, a
 * nested insert's shape): bound whole, each shape's `@p := x` an element of the shape (bound by
 * `linkPropertyWriter`), so the link properties go with each element wherever the value takes it
 * (Gel's rule: they belong to the value's shape, not to a place in the syntax).
 */
function carriedPart(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { parts: RawPart[]; card: Card } {
  const names = new Set<string>();
  const value = bindExpr(
    ctx,
    { ...scope, linkWrite: linkPropertyWriter(ctx, pointer, names) },
    node,
  );
  return { parts: [{ value, props: [], root: null, carried: names }], card: value.card };
}

/** Binds `@p := x` as a write of `pointer`'s link property `p` (its type, its `__default__`),
 * recording the name in `names`. */
function linkPropertyWriter(
  ctx: BindContext,
  pointer: PointerInfo,
  names: Set<string>,
): NonNullable<Scope['linkWrite']> {
  return (el, scope) => {
    const name = (el.path[0] as ql.Ptr).name;
    const property = pointer.properties.get(name);
    if (!property) return unknownLinkProperty(pointer, name, el.span);
    if (property.computed)
      return fail(QueryError, `cannot assign to computed link property '@${name}'`, el.span);
    names.add(name);
    const node = el.compExpr as ql.Expr;
    const valueScope = elementScope(ctx, scope, property, node, pointer);
    return conform(
      ctx,
      property,
      emptyArrayOf(node, property.target) ?? bindExpr(ctx, valueScope, node),
      `${pointer.name}@${name}`,
      el.span,
    );
  };
}

function unknownLinkProperty(pointer: PointerInfo, name: string, span: ql.Span): never {
  return fail(
    InvalidReferenceError,
    `link '${pointer.name}' of object type '${pointer.declaredIn}' has no property '${name}'`,
    span,
  );
}

/** True when the value assigns a link property anywhere (`@p := x` in a shape). */
export function hasLinkProperties(node: ql.Expr): boolean {
  return nestedLinkProperty(node) !== null;
}

/** The first `@p := x` in the syntax tree (as `'@p'`), or null. */
function nestedLinkProperty(node: unknown): string | null {
  if (node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = nestedLinkProperty(item);
      if (found !== null) return found;
    }
    return null;
  }
  const record = node as Record<string, unknown>;
  // A nested insert or update writes its own links: its shape is not this value's, but for the
  // `@p := x` elements of an insert's shape, which go with the link to the new object.
  if (record.kind === 'InsertQuery') {
    const own = (record.shape as ql.ShapeElement[]).find(isLinkPropertyAssignment);
    return own ? `'@${(own.path[0] as ql.Ptr).name}'` : null;
  }
  if (record.kind === 'UpdateQuery') return null;
  if (record.kind === 'Shape' && Array.isArray(record.elements)) {
    for (const el of record.elements as ql.ShapeElement[]) {
      if (isLinkPropertyAssignment(el)) return `'@${(el.path[0] as ql.Ptr).name}'`;
    }
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'span') continue;
    const found = nestedLinkProperty(value);
    if (found !== null) return found;
  }
  return null;
}

export function isLinkPropertyAssignment(el: ql.ShapeElement): boolean {
  const [head] = el.path;
  return el.path.length === 1 && head?.kind === 'Ptr' && head.via === '@' && el.compExpr !== null;
}

/** `T { @p := x, ... }` (also as a select's result, or an insert's shape) → the expression without
 * the `@` elements, and those elements. */
function splitLinkProperties(node: ql.Expr): { expr: ql.Expr; props: ql.ShapeElement[] } {
  if (node.kind === 'InsertQuery') {
    // `(insert T { name := ..., @p := ... })`: the new object, linked with `@p`.
    const props = node.shape.filter(isLinkPropertyAssignment);
    if (props.length === 0) return { expr: node, props };
    return {
      expr: { ...node, shape: node.shape.filter((el) => !isLinkPropertyAssignment(el)) },
      props,
    };
  }
  if (node.kind === 'SelectQuery') {
    const inner = splitLinkProperties(node.result);
    return { expr: { ...node, result: inner.expr }, props: inner.props };
  }
  if (node.kind !== 'Shape' || node.subject === null) return { expr: node, props: [] };
  const isProp = isLinkPropertyAssignment;
  const props = node.elements.filter(isProp);
  if (props.length === 0) return { expr: node, props };
  const rest = node.elements.filter((el) => !isProp(el));
  return { expr: rest.length === 0 ? node.subject : { ...node, elements: rest }, props };
}
