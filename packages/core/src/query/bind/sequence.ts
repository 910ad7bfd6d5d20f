/**
 * query/bind/sequence: `sequence_next(introspect T)`, `sequence_reset(introspect T [, value])`
 * for a scalar type T extending `std::sequence`.
 *
 * Gel passes the `schema::ScalarType` object and finds its sequence at run time; svc's catalogue
 * rows are not in the database, so the binder names T's sequence (schema/storage/names) and
 * calls std's row with that name as a literal (std/functions: `seq: str`). The argument must
 * therefore be `introspect T` of a sequence type; nothing else reaches those rows (a str written
 * by the caller never names a PostgreSQL sequence).
 */
import type * as ql from '../../syntax';
import { InvalidTypeError, UnsupportedFeatureError } from '../../errors';
import { sequenceName } from '../../storage/names';
import { quoteQualified } from '../../sql/codegen/quote';
import { resolveFunction } from '../../std/resolve';
import type { IrExpr } from '../ir';
import { typeEnv } from '../ir';
import { callArg, callNode } from './calls';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { resolveTypeExpr } from './types';

export const SEQUENCE_FUNCTIONS: ReadonlySet<string> = new Set([
  'std::sequence_next',
  'std::sequence_reset',
]);

export function bindSequenceCall(
  ctx: BindContext,
  scope: Scope,
  node: ql.FunctionCall,
  name: string,
): IrExpr {
  const short = name.slice('std::'.length);
  const [first, ...rest] = node.args;
  if (
    !first ||
    first.kind !== 'Introspect' ||
    first.type.kind === 'TypeOf' ||
    node.namedArgs.length
  ) {
    return fail(
      UnsupportedFeatureError,
      `${short}() takes \`introspect T\` of a sequence type T (and for sequence_reset a value)`,
      node.span,
    );
  }
  const type = resolveTypeExpr(ctx.index, scope, first.type);
  const scalar = type.kind === 'scalar' ? ctx.index.scalar(type.name) : undefined;
  if (!scalar || scalar.stdBase !== 'std::sequence') {
    return fail(
      InvalidTypeError,
      `${short}(): '${type.kind === 'scalar' ? type.name : 'the type'}' is not a sequence type`,
      first.span,
    );
  }
  const seq = sequenceName(scalar.name);
  const literal: IrExpr = {
    kind: 'Literal',
    type: { kind: 'scalar', name: 'std::str' },
    card: { min: 1, max: 1 },
    value: quoteQualified(seq.schema, seq.name),
  };
  const values = rest.map((a) => bindExpr(ctx, scope, a));
  const resolved = resolveFunction(
    name,
    [{ type: { kind: 'scalar', name: 'std::str' } }, ...values.map((v) => callArg(v, node.span))],
    { env: typeEnv(ctx.index) },
  );
  return callNode(name, resolved, [literal, ...values]);
}
