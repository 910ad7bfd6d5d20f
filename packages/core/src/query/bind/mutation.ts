/**
 * bind/mutation: `insert`, `update` and `delete` → IR (query/ir): each an `Insert`, `Update` or
 * `Delete` node, the set of objects it writes. Inserts are bind/insert, the elements of a shape
 * that writes bind/mutation-elements (and the link properties written with a link's targets
 * bind/link-writes); update and delete are here.
 *
 * Input: the statement's syntax, the BindContext and Scope. Output: the mutation node.
 * An update's or delete's subject is selected as by `select` (filter, and for delete order by,
 * offset, limit); a mutation bound in a branch of `if ... else` or on the right of `??` carries
 * the branch's guards, one in a `for` body the iterations it is written in.
 * Invariants: pure; errors are QueryError subclasses with the position of the offending node.
 */
import { pathIdOf } from '../ir';
import type * as ql from '../../syntax';
import { InvalidTypeError, QueryError } from '../../errors';
import type { Binding, IrExpr } from '../ir';
import type { Delete, Update } from '../ir';
import { containsMutation } from '../ir';
import type { ObjectTypeInfo } from '../schema-index';
import { isCatalogueType } from '../schema-index/catalogue';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { bindingRef, subjectScope, withPathId } from './names';
import { selectOver, withScope } from './statement';
import { isObjectType, printIrType } from './types';
import { bindInsert } from './insert';
import { guardsOf } from './mutation-writes';
import { bindElements } from './mutation-elements';

export function bindMutation(
  ctx: BindContext,
  scope: Scope,
  node: ql.InsertQuery | ql.UpdateQuery | ql.DeleteQuery,
): IrExpr {
  if (ctx.mode !== 'query') {
    return fail(QueryError, 'a schema expression cannot insert, update or delete', node.span);
  }
  switch (node.kind) {
    case 'InsertQuery':
      return bindInsert(ctx, scope, node);
    case 'UpdateQuery':
      return bindUpdate(ctx, scope, node);
    case 'DeleteQuery':
      return bindDelete(ctx, scope, node);
  }
}

function bindUpdate(ctx: BindContext, outer: Scope, q: ql.UpdateQuery): Update {
  const scope = withScope(ctx, outer, q.aliases);
  const { set, subject, subjectPathId, filter, card } = selectSubject(
    ctx,
    scope,
    q.subject,
    q,
    'update',
  );
  const type = ctx.index.objectType((subject.type as { name: string }).name) as ObjectTypeInfo;
  // A mutation in a value runs once per updated object (Gel evaluates an update's shape per
  // object): it is bound inside an iteration over the updated objects (query/ir `each`).
  const each: Binding = {
    id: ctx.freshId(),
    name: `~each${ctx.freshId()}`,
    expr: set,
    iteration: true,
  };
  const subjectInner = subjectScope(scope, subject, null);
  const inner: Scope = {
    ...subjectInner,
    names: new Map([...subjectInner.names, [each.name, each]]),
  };
  const elements = bindElements(ctx, inner, type, q.shape, 'update');
  const writesPerObject = elements.some((e) => containsMutation(e.value));
  return {
    kind: 'Update',
    type: subject.type,
    card,
    pathId: `update~${ctx.freshId()}${scope.namespace}`,
    subject,
    subjectPathId,
    filter,
    elements,
    ...guardsOf(scope),
    ...(writesPerObject ? { each: bindingRef(each) } : {}),
  };
}

function bindDelete(ctx: BindContext, outer: Scope, q: ql.DeleteQuery): Delete {
  const scope = withScope(ctx, outer, q.aliases);
  const selected = selectSubject(ctx, scope, q.subject, q, 'delete');
  return {
    kind: 'Delete',
    type: selected.subject.type,
    card: selected.card,
    pathId: `delete~${ctx.freshId()}${scope.namespace}`,
    subject: selected.subject,
    subjectPathId: selected.subjectPathId,
    filter: selected.filter,
    orderBy: selected.orderBy,
    offset: selected.offset,
    limit: selected.limit,
    ...guardsOf(scope),
  };
}

/** The objects an update or delete writes: its subject with filter / order by / offset / limit
 * bound as a select's (so cardinality follows the select rules: `filter .id = ...` is at most
 * one). */
function selectSubject(
  ctx: BindContext,
  scope: Scope,
  node: ql.Expr,
  clauses: {
    readonly filter: ql.Expr | null;
    readonly orderBy?: readonly ql.SortExpr[];
    readonly offset?: ql.Expr | null;
    readonly limit?: ql.Expr | null;
  },
  verb: 'update' | 'delete',
) {
  const bound = bindExpr(ctx, scope, node);
  const core = bound.kind === 'Shape' ? bound.subject : bound;
  if (!isObjectType(core.type)) {
    return fail(
      InvalidTypeError,
      `${verb} needs objects, not '${printIrType(core.type)}'`,
      node.span,
    );
  }
  const info = ctx.index.objectType(core.type.name);
  // The schema catalogue is read-only (a set that may hold its objects, too).
  const catalogue = info?.concrete.find(isCatalogueType);
  if (catalogue) {
    return fail(QueryError, `cannot ${verb} standard library type '${catalogue}'`, node.span);
  }
  if (!info || info.name.startsWith('schema::') || info.concrete.length === 0) {
    return fail(QueryError, `cannot ${verb} '${core.type.name}' objects`, node.span);
  }
  const selected = selectOver(
    ctx,
    scope,
    core,
    {
      filter: clauses.filter,
      orderBy: clauses.orderBy ?? [],
      offset: clauses.offset ?? null,
      limit: clauses.limit ?? null,
    },
    node.span,
  );
  if (selected.kind !== 'Select') {
    const subject = withPathId(ctx, scope, core);
    return {
      set: subject,
      subject,
      subjectPathId: pathIdOf(subject) as string,
      filter: null,
      orderBy: [],
      offset: null,
      limit: null,
      card: subject.card,
    };
  }
  return {
    set: selected as IrExpr,
    subject: selected.subject,
    subjectPathId: selected.subjectPathId,
    filter: selected.filter,
    orderBy: selected.orderBy,
    offset: selected.offset,
    limit: selected.limit,
    card: selected.card,
  };
}
