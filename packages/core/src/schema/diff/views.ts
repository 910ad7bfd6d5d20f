/**
 * schema/diff/views: the views of abstract types, dropped when they change and created again.
 */
import { ddl } from '../../sql/codegen/ddl';
import { viewSignature, type ViewLayout } from '../../storage/layout';
import type { Planner } from './planner';

export function planViews(p: Planner): void {
  const before = new Map(p.before.views.map((v) => [v.type, v]));
  const after = new Map(p.after.views.map((v) => [v.type, v]));
  const fromTypes = new Set(p.from?.objectTypes.map((t) => t.name) ?? []);
  for (const [type, view] of before) {
    const next = after.get(type);
    if (next && viewSignature(next) === viewSignature(view)) continue;
    const gone = !p.to.objectTypes.some((t) => t.name === type);
    p.step(
      1,
      gone ? 'drop type' : 'drop view',
      type,
      gone ? `drop abstract type ${type}` : `drop view of ${type} (recreated)`,
      [ddl.dropView(view.spec.name)],
    );
  }
  for (const [type, view] of after) {
    const prev = before.get(type);
    if (prev && viewSignature(prev) === viewSignature(view)) continue;
    const isNew = !fromTypes.has(type);
    p.step(
      11,
      isNew ? 'create type' : 'create view',
      type,
      isNew
        ? `create abstract type ${type} (view over ${describeBranches(view)})`
        : `create view of ${type} over ${describeBranches(view)}`,
      [ddl.createView(view.spec)],
    );
  }
}

function describeBranches(view: ViewLayout): string {
  return view.spec.branches.length === 0
    ? 'no concrete types'
    : view.spec.branches.map((b) => b.typeName).join(', ');
}
