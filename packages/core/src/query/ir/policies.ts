/**
 * query/ir/policies: a type's access policies (SDL `access policy ...`) as IR, bound for one
 * query by the binder (bind/policies) when the planner (plan/access) first asks for them.
 *
 * Semantics (Gel's): each expression is one bool per object of the type, known by
 * `subjectPathId`; the planner evaluates them with the object's row bound as the subject and
 * access policies off inside them (policies do not apply within policies, as Gel since 3.0).
 */
import type { AccessKind } from '../../model/schema';
import type { IrExpr } from './types';

export interface BoundPolicy {
  readonly name: string;
  readonly action: 'allow' | 'deny';
  readonly kinds: readonly AccessKind[];
  readonly errmessage: string | null;
  /** `when (...)`: the objects the policy applies to; null for all. */
  readonly when: IrExpr | null;
  /** `using (...)`: the condition it sets for them; null for true. */
  readonly using: IrExpr | null;
}

export interface TypePolicies {
  readonly type: string;
  /** The path id the expressions know the object by (`.x`, `__subject__`). */
  readonly subjectPathId: string;
  readonly policies: readonly BoundPolicy[];
}

/** Where the planner gets the policies of the types one query reads and writes. */
export interface PolicySource {
  /** `concrete`'s policies, or null when it has none. */
  of(concrete: string): TypePolicies | null;
}
