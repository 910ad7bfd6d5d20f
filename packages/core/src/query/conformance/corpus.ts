/**
 * conformance/corpus: where the cases live and how they are found.
 *
 * - `cases/*.case`: the cases CI runs (conformance.test.ts), on PGlite and on PostgreSQL;
 * - `pending/*.case`: cases the compiler cannot pass yet; CI does not run them, the README counts
 *   them, and `SVC_CONFORMANCE=pending` re-runs them and lists those that now pass;
 * - `fixtures/<name>.esdl` (+ `<name>.setup.edgeql`): the schemas and data cases name.
 * Input: a folder. Output: its case files parsed, grouped by fixture (files sorted by name).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCaseFile, type Case } from './case-file';

export const CONFORMANCE_DIR = __dirname;
export const FIXTURES_DIR = join(__dirname, 'fixtures');
export type CorpusPart = 'cases' | 'pending';

export interface LoadedCase extends Case {
  /** The file it came from, relative to this folder (`cases/select.case`). */
  readonly file: string;
}

export interface FixtureGroup {
  readonly fixture: string;
  readonly cases: readonly LoadedCase[];
}

export function loadCorpus(part: CorpusPart): FixtureGroup[] {
  const dir = join(CONFORMANCE_DIR, part);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.case'))
    .sort();
  const groups = new Map<string, LoadedCase[]>();
  for (const name of files) {
    const file = `${part}/${name}`;
    const parsed = parseCaseFile(readFileSync(join(dir, name), 'utf8'), file);
    const list = groups.get(parsed.fixture) ?? [];
    for (const c of parsed.cases) list.push({ ...c, file });
    groups.set(parsed.fixture, list);
  }
  return [...groups].map(([fixture, cases]) => ({ fixture, cases }));
}

/** `file › name`: how a case is named in test output and in the pending report. */
export function caseTitle(c: LoadedCase): string {
  return `${c.file} › ${c.name}`;
}
