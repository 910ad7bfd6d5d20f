/**
 * The corpus itself, checked without the compiler: every case file parses, names a fixture that
 * builds (or, used only by pending cases, parses), every query and setup script parses, case names are unique, and README.md states the
 * real number of active and pending cases (so no case is dropped silently).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from '../../schema/build';
import { parseQuery, parseSchema } from '../../syntax';
import { caseTitle, CONFORMANCE_DIR, FIXTURES_DIR, loadCorpus, type CorpusPart } from './corpus';
import { readFixture, splitScript } from './run-case';

const parts: CorpusPart[] = ['cases', 'pending'];
const corpus = Object.fromEntries(parts.map((p) => [p, loadCorpus(p)])) as Record<
  CorpusPart,
  ReturnType<typeof loadCorpus>
>;
const count = (part: CorpusPart) => corpus[part].reduce((n, g) => n + g.cases.length, 0);

describe('conformance corpus', () => {
  const active = new Set(corpus.cases.map((g) => g.fixture));
  const pendingOnly = new Set(corpus.pending.map((g) => g.fixture).filter((f) => !active.has(f)));

  test.each([...active])('fixture %s builds and its setup parses', (name) => {
    expect(existsSync(join(FIXTURES_DIR, `${name}.esdl`))).toBe(true);
    const fixture = readFixture(FIXTURES_DIR, name);
    expect(() => buildSchema(fixture.sdl)).not.toThrow();
    expect(() => splitScript(fixture.setup)).not.toThrow();
  });

  // A fixture only pending cases use may wait for a schema feature: it must parse, not build.
  test('every fixture only pending cases use parses', () => {
    for (const name of pendingOnly) {
      const fixture = readFixture(FIXTURES_DIR, name);
      expect(() => parseSchema(fixture.sdl)).not.toThrow();
      expect(() => splitScript(fixture.setup)).not.toThrow();
    }
  });

  test('every query of every case parses', () => {
    const failures: string[] = [];
    for (const part of parts)
      for (const group of corpus[part])
        for (const c of group.cases)
          for (const step of c.steps) {
            if (step.kind !== 'query') continue;
            if (step.expect.kind === 'error' && /Syntax/.test(step.expect.className)) continue;
            try {
              parseQuery(step.text);
            } catch (error) {
              failures.push(`${caseTitle(c)} (line ${step.line}): ${(error as Error).message}`);
            }
          }
    expect(failures).toEqual([]);
  });

  test('case names are unique across the corpus', () => {
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const part of parts)
      for (const group of corpus[part])
        for (const c of group.cases) {
          const other = seen.get(c.name);
          if (other) duplicates.push(`${c.name} (${c.file} and ${other})`);
          seen.set(c.name, c.file);
        }
    expect(duplicates).toEqual([]);
  });

  test('README.md counts the active and pending cases', () => {
    const readme = readFileSync(join(CONFORMANCE_DIR, 'README.md'), 'utf8');
    const stated = /Active cases: (\d+); pending cases: (\d+)\./.exec(readme);
    expect(stated?.slice(1, 3).map(Number)).toEqual([count('cases'), count('pending')]);
  });
});
