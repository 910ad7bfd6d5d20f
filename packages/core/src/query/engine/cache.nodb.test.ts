import { LruCache } from './cache';

test('the least recently used entry is evicted, a hit making its entry the most recent', () => {
  const cache = new LruCache<number>(3);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  expect(cache.get('a')).toBe(1); // a is now the newest: b is the oldest
  cache.set('d', 4);
  expect(cache.get('b')).toBeUndefined();
  expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  expect(cache.size).toBe(3);
});

test('hits on the newest entry, over and over, keep the order the others were used in', () => {
  const cache = new LruCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  for (let i = 0; i < 5; i++) expect(cache.get('b')).toBe(2);
  cache.set('c', 3); // a was used least recently
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('b')).toBe(2);
  // After a hit on `b` (the newest already), `c` is the older of the two.
  cache.set('d', 4);
  expect(cache.get('c')).toBeUndefined();
  expect(cache.get('b')).toBe(2);
});

test('set on a present key replaces its value and makes it the newest; clear empties it', () => {
  const cache = new LruCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('a', 10);
  cache.set('c', 3); // b is the oldest now
  expect(cache.get('b')).toBeUndefined();
  expect(cache.get('a')).toBe(10);
  cache.clear();
  expect(cache.size).toBe(0);
  expect(cache.get('a')).toBeUndefined();
  cache.set('a', 1);
  expect(cache.get('a')).toBe(1);
});

test('hits and misses are counted; a capacity that is not a positive integer is refused', () => {
  const cache = new LruCache<number>(1);
  cache.set('a', 1);
  cache.get('a');
  cache.get('a');
  cache.get('z');
  expect([cache.hits, cache.misses]).toEqual([2, 1]);
  expect(() => new LruCache(0)).toThrow(RangeError);
  expect(() => new LruCache(1.5)).toThrow(RangeError);
});
