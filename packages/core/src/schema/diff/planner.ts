/**
 * schema/diff/planner: the state of one migration plan being made — its steps by phase, its data
 * checks, and what was already emitted with a pointer's step.
 */
import type { Schema } from '../../model/schema';
import type { DataCheck, MigrationStepKind } from '../../model/migration';
import type { QName } from '../../sql/codegen/ddl';
import type { StorageLayout } from '../../storage/layout';

const PHASES = 12;

export interface Step {
  kind: MigrationStepKind;
  subject: string;
  description: string;
  sql: string[];
}

export const qkey = (q: QName) => `${q.schema}\u0000${q.name}`;

export class Planner {
  readonly phases: Step[][] = Array.from({ length: PHASES }, () => []);
  readonly checks: DataCheck[] = [];
  /** FKs and indexes already emitted with their pointer's step. */
  readonly emitted = new Set<string>();

  /** The fills a step used (the rest are refused: nothing needed them). */
  readonly usedFills = new Set<string>();
  /** Pointers that would take a fill, and got none (MigrationPlan.fillsWanted). */
  readonly fillsWanted = new Set<string>();

  constructor(
    readonly from: Schema | null,
    readonly to: Schema,
    readonly before: StorageLayout,
    readonly after: StorageLayout,
    /** By subject (`default::User.about`): the fill expressions given (MigrationHints). */
    readonly fills: ReadonlyMap<string, string> = new Map(),
  ) {}

  step(
    phase: number,
    kind: MigrationStepKind,
    subject: string,
    description: string,
    sql: string[],
  ): Step {
    const s: Step = { kind, subject, description, sql };
    (this.phases[phase - 1] as Step[]).push(s);
    return s;
  }

  check(kind: DataCheck['kind'], subject: string, message: string, sql: string): void {
    this.checks.push({ kind, subject, message, sql });
  }
}
