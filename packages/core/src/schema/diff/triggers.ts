/**
 * schema/diff/triggers: the integrity triggers (storage/integrity), compared by printed SQL.
 */
import { sharedDuplicates, triggerDdl, type TriggerSpec } from '../../sql/codegen/triggers';
import { type Planner, qkey } from './planner';

export function planTriggers(p: Planner): void {
  const key = (t: TriggerSpec) => `${qkey(t.table)}\u0000${t.name}`;
  const text = (t: TriggerSpec) =>
    `${triggerDdl.createFunction(t)}\n${triggerDdl.createTrigger(t)}`;
  const before = new Map(p.before.triggers.map((t) => [key(t), t]));
  const after = new Map(p.after.triggers.map((t) => [key(t), t]));
  const subject = (t: TriggerSpec) => `${t.table.schema}::${t.table.name}`;
  const storedTables = new Set(p.before.tables.map((t) => qkey(t.table)));
  for (const [k, t] of before) {
    const next = after.get(k);
    if (next && text(next) === text(t)) continue;
    p.step(2, 'drop trigger', subject(t), `drop integrity trigger ${t.name} on ${subject(t)}`, [
      triggerDdl.dropTrigger(t),
      triggerDdl.dropFunction(t),
    ]);
  }
  for (const [k, t] of after) {
    const prev = before.get(k);
    if (prev && text(prev) === text(t)) continue;
    p.step(
      11,
      'create trigger',
      subject(t),
      `create integrity trigger ${t.name} on ${subject(t)}`,
      [triggerDdl.createFunction(t), triggerDdl.createTrigger(t)],
    );
    // Rows stored before the trigger existed may already break what it holds.
    const duplicates = sharedDuplicates(t, (table) => storedTables.has(qkey(table)));
    if (duplicates && p.from !== null) {
      p.check(
        'violation',
        subject(t),
        `stored rows of the hierarchy of ${subject(t)} share values that ${t.name} makes exclusive`,
        duplicates,
      );
    }
  }
}
