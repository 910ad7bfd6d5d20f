/**
 * query/bind/approximate-count: `sys::approximate_count(introspect T [, ignore_subtypes := b])`
 * for an object type T.
 *
 * Gel passes the `schema::ObjectType` object and reads PostgreSQL's planner statistics at run
 * time. svc's catalogue rows are not in the database (bind/sequence.ts says the same for
 * sequences), and the statistics know nothing of the catalogue's own types, so the binder counts
 * instead: `count(detached T)`, or with `ignore_subtypes` the objects whose type is T itself. An
 * exact count is a valid approximation; it reads every row where Gel reads a statistic.
 */
import { InvalidTypeError, UnsupportedFeatureError } from '../../errors';
import * as ql from '../../syntax';
import { quoteName, str } from '../../syntax/quote';
import { cardProduct, ONE, type IrExpr } from '../ir';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { expectBool } from './operators';
import { resolveTypeExpr } from './types';

export const APPROXIMATE_COUNT = 'sys::approximate_count';

export function bindApproximateCount(
  ctx: BindContext,
  scope: Scope,
  node: ql.FunctionCall,
): IrExpr {
  const [first, ...rest] = node.args;
  const ignore = node.namedArgs.find((a) => a.name === 'ignore_subtypes');
  if (
    !first ||
    rest.length ||
    first.kind !== 'Introspect' ||
    first.type.kind === 'TypeOf' ||
    node.namedArgs.some((a) => a !== ignore)
  ) {
    return fail(
      UnsupportedFeatureError,
      'sys::approximate_count() takes `introspect T` of an object type T (and ignore_subtypes)',
      node.span,
    );
  }
  const type = resolveTypeExpr(ctx.index, scope, first.type);
  if (type.kind !== 'object') {
    return fail(
      InvalidTypeError,
      'sys::approximate_count(): the argument must be `introspect` of an object type',
      first.span,
    );
  }
  const subject = `detached ${quoteName(type.name)}`;
  const all = bindExpr(ctx, scope, ql.parseExpression(`count(${subject})`));
  if (!ignore) return all;
  const own = bindExpr(
    ctx,
    scope,
    ql.parseExpression(`count((select ${subject} filter .__type__.name = ${str(type.name)}))`),
  );
  const condition = bindExpr(ctx, scope, ignore.value);
  expectBool(condition, ignore.value.span);
  return {
    kind: 'IfElse',
    type: all.type,
    card: cardProduct(condition.card, ONE),
    condition,
    then: own,
    else: all,
  };
}
