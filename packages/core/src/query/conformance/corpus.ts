/**
 * conformance/corpus: where the cases live and how they are found.
 *
 * - `cases/*.case`: the cases CI runs (conformance.test.ts), on PGlite and on PostgreSQL;
 * - `pending/*.case`: cases the compiler cannot pass yet; CI does not run them, the README counts
 *   them, and `SVC_CONFORMANCE=pending` re-runs them and lists those that now pass;
 * - `fixtures/<name>.esdl` (+ `<name>.setup.edgeql`): the schemas and data cases name.
 * Input: a folder. Output: its case files parsed, grouped by fixture (files sorted by name).
 */
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

export interface CaseMove {
  /** `cases/x.case` or `pending/x.case`, as in `LoadedCase.file`. */
  readonly file: string;
  readonly name: string;
  /** Written as a `# pending: <note>` line under the case's name (moves into pending/ only). */
  readonly note?: string;
}

/**
 * Moves cases between cases/ and pending/, keeping each in a file of the same name (created
 * with the fixture line when missing; a file left without cases is deleted). Used by
 * conformance.test.ts with SVC_CONFORMANCE_MOVE=1: failing active cases go to pending/ with
 * their failure as a note, passing pending ones come back to cases/ without it.
 */
export function moveCases(to: CorpusPart, moves: readonly CaseMove[]): void {
  const byFile = new Map<string, CaseMove[]>();
  for (const move of moves) byFile.set(move.file, [...(byFile.get(move.file) ?? []), move]);
  for (const [file, list] of byFile) {
    const source = join(CONFORMANCE_DIR, file);
    const { header, blocks } = splitBlocks(readFileSync(source, 'utf8'));
    const names = new Map(list.map((m) => [m.name, m]));
    const stay = blocks.filter((b) => !names.has(b.name));
    const go = blocks.filter((b) => names.has(b.name));
    const fixture = /^fixture:\s*(\S+)/m.exec(header)?.[1] ?? '';
    const targetPath = join(CONFORMANCE_DIR, to, basename(file));
    const target = existsSync(targetPath)
      ? readFileSync(targetPath, 'utf8').replace(/\n*$/, '\n\n')
      : `${to === 'pending' ? PENDING_HEADER : ''}fixture: ${fixture}\n\n`;
    const moved = go.map((b) => {
      const lines = b.lines.filter((l) => !l.startsWith('# pending:'));
      const note = names.get(b.name)?.note;
      // The failure without its `line N:` prefix (lines change when the case moves).
      const text = note?.replace(/^line \d+: /, '').replace(/\s+/g, ' ');
      if (to === 'pending' && text) lines.splice(1, 0, `# pending: ${text}`);
      return lines;
    });
    writeFileSync(targetPath, target + joinBlocks(moved));
    if (stay.length)
      writeFileSync(
        source,
        `${header.replace(/\n*$/, '')}\n\n${joinBlocks(stay.map((b) => b.lines))}`,
      );
    else unlinkSync(source);
  }
}

const PENDING_HEADER =
  '# Pending: cases the compiler does not pass yet, each with its first failure as a note.\n' +
  '# `SVC_CONFORMANCE=pending` re-runs them (README.md); move passing ones back to cases/.\n';

function splitBlocks(text: string): {
  header: string;
  blocks: { name: string; lines: string[] }[];
} {
  const lines = text.split('\n');
  const starts = lines.flatMap((l, i) => (l.startsWith('===') ? [i] : []));
  const header = lines.slice(0, starts[0] ?? lines.length).join('\n');
  const blocks = starts.map((start, k) => {
    const block = lines.slice(start, starts[k + 1] ?? lines.length);
    while (block.length && (block[block.length - 1] as string).trim() === '') block.pop();
    return { name: (block[0] as string).replace(/^===/, '').trim(), lines: block };
  });
  return { header, blocks };
}

function joinBlocks(blocks: readonly string[][]): string {
  return `${blocks.map((b) => b.join('\n')).join('\n\n')}\n`;
}

/** Rewrites README.md's "Active cases: N; pending cases: M." from the files. */
export function updateReadmeCounts(): void {
  const path = join(CONFORMANCE_DIR, 'README.md');
  const count = (part: CorpusPart) => loadCorpus(part).reduce((n, g) => n + g.cases.length, 0);
  const text = readFileSync(path, 'utf8').replace(
    /Active cases: \d+; pending cases: \d+\./,
    `Active cases: ${count('cases')}; pending cases: ${count('pending')}.`,
  );
  writeFileSync(path, text);
}
