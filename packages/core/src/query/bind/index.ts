/**
 * query/bind: EdgeQL syntax → typed IR (query/ir) against a schema index.
 *
 * Input: one parsed statement, the SchemaIndex, the mode. Output: an `IrQuery` — the root set
 * (type, cardinality inferred before anything runs) and the parameters by slot.
 * Invariants: pure; throws only QueryError subclasses with positions; recursion depth bounded.
 *
 * Modes (./context): `query` for statements sent to /query; `schema` and `ddl` are the
 * restricted modes schema inference (schema/build/computed.ts, bound.ts) and DDL expressions
 * (schema/storage/ddl-expression.ts through ./ddl) bind through, so the three share one set of
 * name, path, cardinality and std rules: `bindExpression(index, expr, { mode, module, subject })`
 * binds a schema expression with `.x` meaning the given object type.
 */
import type * as ql from '../../syntax';
import { QueryError } from '../../errors';
import type { IrExpr, IrQuery } from '../ir';
import { MANY } from '../ir';
import type { SchemaIndex } from '../schema-index';
import { BindContext, rootScope, type BindMode } from './context';
import { bindExpr } from './expr';
import { subjectScope } from './names';
import { assertMutationPlacement, containsMutation } from '../ir';
import { writesOf } from './mutation-writes';
import { PolicyBinder } from './policies';
import { checkSubjectPrefixes } from './prefix-check';

export { MAX_DEPTH, type BindMode } from './context';
export type { BoundPolicy, TypePolicies } from '../ir';
export type { PolicyBinder } from './policies';

export function bindQuery(index: SchemaIndex, statement: ql.Statement): IrQuery {
  return bindStatement(index, statement).query;
}

/** A bound statement, with what binding may still add while it is planned. */
export interface BoundStatement {
  readonly query: IrQuery;
  /**
   * The access policies of the types the statement reads or writes, bound in the statement's
   * context when the planner first asks (./policies): the globals they read join its parameters.
   */
  readonly policies: PolicyBinder;
  /** Every parameter in slot order: the statement's, then any its policies read (after planning). */
  params(): IrQuery['params'];
}

export function bindStatement(
  index: SchemaIndex,
  statement: ql.Statement,
  options: { readonly policies?: boolean; readonly allowUserSpecifiedId?: boolean } = {},
): BoundStatement {
  const ctx = new BindContext(
    index,
    'query',
    options.policies === true,
    options.allowUserSpecifiedId === true,
  );
  const root = bindExpr(ctx, rootScope(), statement);
  assertMutationPlacement(root, (message) => {
    throw new QueryError(message);
  });
  checkSubjectPrefixes(root);
  const params = (): IrQuery['params'] =>
    [...ctx.params.values()]
      .sort((a, b) => a.index - b.index)
      .map((p) => ({ source: p.source, name: p.name, type: p.type, required: p.required }));
  return {
    query: {
      root,
      params: params(),
      writes: containsMutation(root) || writesOf(ctx).length > 0,
      sideEffects: writesOf(ctx),
    },
    policies: new PolicyBinder(ctx),
    params,
  };
}

export interface ExpressionOptions {
  readonly mode: Exclude<BindMode, 'query'>;
  readonly module: string;
  /** The object type `.x` and `__subject__` refer to, if any. */
  readonly subjectType: string | null;
}

/** A schema expression (a computed, default, constraint or index expression) bound in a restricted mode. */
export function bindExpression(
  index: SchemaIndex,
  expr: ql.Expr,
  options: ExpressionOptions,
): IrExpr {
  const ctx = new BindContext(index, options.mode);
  let scope = rootScope(options.module);
  if (options.subjectType !== null) {
    if (!index.objectType(options.subjectType)) {
      throw new QueryError(`type '${options.subjectType}' does not exist`);
    }
    const subject: IrExpr = {
      kind: 'TypeRoot',
      type: { kind: 'object', name: options.subjectType },
      card: MANY,
      objectType: options.subjectType,
      pathId: `__subject__:${options.subjectType}`,
    };
    scope = subjectScope(scope, subject, null);
  }
  return bindExpr(ctx, scope, expr);
}
