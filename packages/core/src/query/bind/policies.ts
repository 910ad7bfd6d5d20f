/**
 * bind/policies: a concrete type's access policies (SDL `access policy ...`), bound for one query
 * in that query's BindContext, so the globals they read are parameters of the compiled query
 * (one slot per name, shared with the query's own uses).
 *
 * Input: the query's BindContext, a concrete object type. Output: its policies (its own and the
 * inherited ones, as the schema model lists them) with `when` and `using` bound over one object
 * of the type, known by `subjectPathId`; null when the type has none.
 * Semantics (Gel's): each expression is one bool per object (schema/build refuses anything else);
 * the planner (plan/access) evaluates them with the object's row bound as the subject and access
 * policies off inside them (policies do not apply within policies, as Gel since 3.0).
 * Invariant: bound once per (query, type); the IR is reused for every read of the type.
 */
import type * as ql from '../../syntax';
import type { IrExpr, PolicySource, TypePolicies } from '../ir';
import { MANY } from '../ir';
import { rootScope, type BindContext } from './context';
import { bindExpr } from './expr';
import { subjectScope } from './names';

/** The policies of the types one query reads and writes, bound on first demand. */
export class PolicyBinder implements PolicySource {
  private readonly bound = new Map<string, TypePolicies | null>();

  constructor(private readonly ctx: BindContext) {}

  /** `concrete`'s policies, or null when it has none. */
  of(concrete: string): TypePolicies | null {
    if (this.bound.has(concrete)) return this.bound.get(concrete) ?? null;
    const result = this.bind(concrete);
    this.bound.set(concrete, result);
    return result;
  }

  private bind(concrete: string): TypePolicies | null {
    const policies = this.ctx.index.objectType(concrete)?.model?.policies ?? [];
    if (policies.length === 0) return null;
    const subjectPathId = `__policy__:${concrete}`;
    const subject: IrExpr = {
      kind: 'TypeRoot',
      type: { kind: 'object', name: concrete },
      card: MANY,
      objectType: concrete,
      pathId: subjectPathId,
    };
    return {
      type: concrete,
      subjectPathId,
      policies: policies.map((p) => {
        // Names resolve in the module of the type that declared the policy.
        const module = p.declaredIn.slice(0, p.declaredIn.lastIndexOf('::'));
        const scope = subjectScope(rootScope(module), subject, null);
        const bind = (e: ql.Expr | null): IrExpr | null =>
          e === null ? null : bindExpr(this.ctx, scope, e);
        return {
          name: p.name,
          action: p.action,
          kinds: p.kinds,
          errmessage: p.errmessage,
          when: bind(p.when),
          using: bind(p.using),
        };
      }),
    };
  }
}
