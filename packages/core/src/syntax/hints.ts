/**
 * hints: "did you mean" suggestions for misspelt keywords in syntax errors.
 */

/** Keywords that begin a statement. */
export const STATEMENT_KEYWORDS = ['select', 'insert', 'update', 'delete', 'with', 'for', 'group'];

/** Keywords that can follow a complete expression inside a query. */
export const CLAUSE_KEYWORDS = [
  'filter',
  'order',
  'offset',
  'limit',
  'union',
  'except',
  'intersect',
  'unless',
  'conflict',
  'using',
  'set',
  'then',
  'else',
  'and',
  'like',
  'ilike',
  'desc',
  'empty',
  'first',
  'last',
  'select',
  'insert',
  'update',
  'delete',
];

/** Keywords that begin an SDL declaration at module level. */
export const SDL_DECLARATION_KEYWORDS = [
  'module',
  'type',
  'abstract',
  'scalar',
  'annotation',
  'constraint',
  'function',
  'alias',
  'global',
  'required',
  'optional',
  'multi',
  'single',
  'property',
  'link',
  'permission',
  'using',
];

/** Keywords that begin a member inside an SDL type or pointer block. */
export const SDL_MEMBER_KEYWORDS = [
  'required',
  'optional',
  'single',
  'multi',
  'property',
  'link',
  'constraint',
  'index',
  'annotation',
  'access',
  'policy',
  'trigger',
  'overloaded',
  'delegated',
  'deferred',
  'rewrite',
  'using',
];

/**
 * The candidate `word` most likely misspells, or undefined. Words of up to 3 letters are never
 * corrected (too many real names are that short); longer words allow 1 edit, 6+ letters 2.
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  if (lower.length <= 3) return undefined;
  const limit = lower.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === lower) return undefined;
    if (Math.abs(candidate.length - lower.length) > limit) continue;
    const d = editDistance(lower, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

export function didYouMean(keyword: string): string {
  return `did you mean '${keyword}'?`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
export function editDistance(a: string, b: string): number {
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      }
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] ?? 0;
}

/**
 * The candidate closest to `word` (case aside), for a "did you mean" about a name a person
 * typed: a command, an option, a configuration key. None for words of 1 or 2 characters; at most
 * 1 edit up to 4 characters, 2 up to 8, 3 beyond; a transposition is one edit. Undefined when
 * none is that close or `word` is itself a candidate.
 *
 * @example
 * closestName('serv', ['serve', 'migrate']); // 'serve'
 */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  if (lower.length <= 2) return undefined; // too short to tell a slip from another name
  const limit = lower.length <= 4 ? 1 : lower.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    if (other === lower) return undefined;
    if (Math.abs(other.length - lower.length) >= bestDistance) continue;
    const d = editDistance(lower, other);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
