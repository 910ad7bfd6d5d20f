/**
 * A line diff of two texts (the SDL of two schema versions): the lines of `before` and `after`
 * in order, each kept, removed or added, from a longest common subsequence of the lines. Pure.
 * The common head and tail are taken off first; what is left is compared by dynamic programming
 * up to MAX_CELLS (then it is shown as removed and re-added, which is true if not minimal).
 */
export type DiffLine = { readonly op: 'same' | 'add' | 'remove'; readonly text: string };

/** Past this many cells (lines × lines of the changed middle) the middle is not compared. */
export const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: 'same', text }));
  out.push(...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)));
  for (const text of a.slice(a.length - tail)) out.push({ op: 'same', text });
  return out;
}

/** How many lines a diff adds and removes. */
export function diffCounts(diff: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff) {
    if (line.op === 'add') added++;
    else if (line.op === 'remove') removed++;
  }
  return { added, removed };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function middle(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return [
      ...a.map((text) => ({ op: 'remove' as const, text })),
      ...b.map((text) => ({ op: 'add' as const, text })),
    ];
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], one flat array.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0)) {
      out.push({ op: 'remove', text: a[i++] as string });
    } else {
      out.push({ op: 'add', text: b[j++] as string });
    }
  }
  while (i < n) out.push({ op: 'remove', text: a[i++] as string });
  while (j < m) out.push({ op: 'add', text: b[j++] as string });
  return out;
}
