import { diffCounts, lineDiff, MAX_CELLS } from './diff';

const show = (before: string, after: string) =>
  lineDiff(before, after).map(
    (l) => `${l.op === 'add' ? '+' : l.op === 'remove' ? '-' : ' '}${l.text}`,
  );

describe('lineDiff', () => {
  test('equal texts: every line kept', () => {
    expect(show('a\nb\n', 'a\nb\n')).toEqual([' a', ' b']);
  });

  test('a line added in the middle, one removed, one changed', () => {
    const before = 'type A {\n  x: str;\n  y: int64;\n}\ntype B {}\n';
    const after = 'type A {\n  x: str;\n  z: bool;\n  y: int64;\n}\ntype C {}\n';
    expect(show(before, after)).toEqual([
      ' type A {',
      '   x: str;',
      '+  z: bool;',
      '   y: int64;',
      ' }',
      '-type B {}',
      '+type C {}',
    ]);
    expect(diffCounts(lineDiff(before, after))).toEqual({ added: 2, removed: 1 });
  });

  test('from and to the empty text', () => {
    expect(show('', 'a\nb')).toEqual(['+a', '+b']);
    expect(show('a\nb', '')).toEqual(['-a', '-b']);
    expect(show('', '')).toEqual([]);
  });

  test('CRLF and LF lines compare equal; a missing final newline is no change', () => {
    expect(show('a\r\nb\r\n', 'a\nb')).toEqual([' a', ' b']);
  });

  test('the kept lines are a common subsequence and the diff rebuilds both texts', () => {
    const before = ['q', 'a', 'b', 'c', 'a', 'b', 'b', 'a'];
    const after = ['c', 'b', 'a', 'b', 'a', 'c', 'q'];
    const diff = lineDiff(before.join('\n'), after.join('\n'));
    expect(diff.filter((l) => l.op !== 'add').map((l) => l.text)).toEqual(before);
    expect(diff.filter((l) => l.op !== 'remove').map((l) => l.text)).toEqual(after);
    // The LCS of these two sequences has 4 lines (e.g. c b a b... / b a b a).
    expect(diff.filter((l) => l.op === 'same').length).toBe(4);
  });

  test('a middle too large to compare is shown removed then added, still rebuilding both', () => {
    const n = Math.ceil(Math.sqrt(MAX_CELLS)) + 1;
    const before = Array.from({ length: n }, (_, i) => `a${i}`);
    const after = Array.from({ length: n }, (_, i) => `b${i}`);
    const diff = lineDiff(['head', ...before].join('\n'), ['head', ...after].join('\n'));
    expect(diff[0]).toEqual({ op: 'same', text: 'head' });
    expect(diffCounts(diff)).toEqual({ added: n, removed: n });
  });
});
