import { compareResult } from './compare';

describe('compareResult', () => {
  test('ordered arrays compare element by element', () => {
    expect(compareResult([1, 2], [1, 2], 'ordered')).toBeNull();
    expect(compareResult([2, 1], [1, 2], 'ordered')).toMatch(/\$\[0\]: expected 1, got 2/);
    expect(compareResult([1], [1, 2], 'ordered')).toMatch(/expected 2 element/);
  });

  test('unordered arrays are multisets at every depth', () => {
    expect(
      compareResult([{ a: [2, 1] }, { a: [] }], [{ a: [] }, { a: [1, 2] }], 'unordered'),
    ).toBeNull();
    expect(compareResult([1, 1, 2], [1, 2, 2], 'unordered')).toMatch(/pairwise|no element/);
  });

  test('objects need exactly the expected keys; exact mode also checks their order', () => {
    expect(compareResult({ a: 1, b: 2 }, { b: 2, a: 1 }, 'ordered')).toBeNull();
    expect(compareResult({ a: 1, b: 2 }, { b: 2, a: 1 }, 'exact')).toMatch(/keys in order a, b/);
    expect(compareResult({ a: 1 }, { a: 1, b: null }, 'ordered')).toMatch(/missing key\(s\) b/);
    expect(compareResult({ a: 1, c: 3 }, { a: 1 }, 'ordered')).toMatch(/unexpected key\(s\) c/);
  });

  test('placeholders match ids, datetimes and anything, except in exact mode', () => {
    const id = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    expect(compareResult([{ id }], [{ id: '<uuid>' }], 'unordered')).toBeNull();
    expect(compareResult(['x'], ['<uuid>'], 'ordered')).toMatch(/expected <uuid>/);
    expect(compareResult(['2024-01-02T03:04:05.123Z'], ['<datetime>'], 'ordered')).toBeNull();
    expect(compareResult([{ x: [1] }], [{ x: '<any>' }], 'ordered')).toBeNull();
    expect(compareResult([id], ['<uuid>'], 'exact')).not.toBeNull();
  });

  test('null, numbers and type mismatches', () => {
    expect(compareResult([null], [null], 'ordered')).toBeNull();
    expect(compareResult([0.1 + 0.2], [0.3], 'ordered')).toBeNull();
    expect(compareResult(['1'], [1], 'ordered')).toMatch(/expected 1, got "1"/);
    expect(compareResult({}, [], 'ordered')).toMatch(/expected an array/);
  });
});
