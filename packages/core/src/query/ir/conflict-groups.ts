/**
 * query/ir/conflict-groups: the type-level exclusive constraints an `unless conflict` without `on`
 * checks besides the pointers' own (`constraint exclusive on ((.first, .last))`): Gel checks
 * every exclusive constraint of the inserted type, each alone.
 *
 * Input: the inserted type. Output: per plain type-level exclusive constraint over stored
 * single pointers of the type (`(.a, .b)` or `__subject__.a`), its pointers and the type
 * declaring it: what an insert's `Conflict` with `on` null checks besides each exclusive pointer.
 * Pure; used by the binder (bind/mutation) and plan/mutation (the conflict checks and the guard
 * of writes nested in the values).
 */
import type * as ql from '../../syntax';
import type { ObjectTypeInfo, PointerInfo } from '../schema-index';

export interface ConflictGroup {
  readonly pointers: readonly PointerInfo[];
  readonly owner: string;
}

export function typeLevelConflictGroups(type: ObjectTypeInfo): ConflictGroup[] {
  const out: ConflictGroup[] = [];
  for (const c of type.model?.constraints ?? []) {
    if (c.name !== 'std::exclusive' || c.except !== null || c.subjectExpr === null) continue;
    const subject = c.subjectExpr;
    const parts = subject.kind === 'TupleLiteral' ? subject.elements : [subject];
    const pointers = parts.map((p) => {
      const name = subjectPointerName(p);
      const pointer = name === null ? undefined : type.pointers.get(name);
      return pointer && !pointer.many && pointer.computed === null ? pointer : null;
    });
    if (pointers.some((p) => p === null)) continue;
    out.push({ pointers: pointers as PointerInfo[], owner: c.declaredIn });
  }
  return out;
}

/** `.p` or `__subject__.p` → `p`; anything else → null. */
export function subjectPointerName(expr: ql.Expr): string | null {
  if (expr.kind !== 'Path' || expr.steps.length !== 1) return null;
  const [step] = expr.steps;
  if (!step || step.kind !== 'Ptr' || step.via !== '.') return null;
  const fromSubject =
    expr.subject === null ||
    (expr.subject.kind === 'Anchor' && expr.subject.name === '__subject__');
  return fromSubject ? step.name : null;
}
