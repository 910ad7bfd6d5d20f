import fc from 'fast-check';
import {
  CborError,
  MAX_DEPTH,
  decodeCbor,
  decodeCborPrefix,
  encodeCbor,
  type CborValue,
} from './cbor';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

/** Arbitrary values of the supported subset (maps with distinct keys). */
const cborValue: fc.Arbitrary<CborValue> = fc.letrec<{ value: CborValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.maxSafeInteger().filter((n) => n > -Number.MAX_SAFE_INTEGER),
    fc.integer({ min: -30, max: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.uint8Array({ maxLength: 40 }),
    fc.constantFrom<CborValue>(true, false, null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .uniqueArray(
        fc.tuple(
          fc.oneof(fc.integer({ min: -100, max: 100 }), fc.string({ maxLength: 8 })),
          tie('value'),
        ),
        {
          maxLength: 5,
          selector: ([k]) => k,
        },
      )
      .map((entries) => new Map(entries)),
  ),
})).value;

describe('CBOR decoder', () => {
  test('decodes what the encoder writes, for any value of the subset (round trip)', () => {
    fc.assert(
      fc.property(cborValue, (v) => {
        expect(decodeCbor(encodeCbor(v))).toEqual(v);
      }),
      { numRuns: 500 },
    );
  });

  test('on arbitrary bytes it returns a value or throws CborError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodeCbor(bytes);
        } catch (err) {
          expect(err).toBeInstanceOf(CborError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('a truncated encoding is always refused', () => {
    fc.assert(
      fc.property(cborValue, fc.nat(), (v, cut) => {
        const bytes = encodeCbor(v);
        if (bytes.length < 2) return;
        const n = cut % (bytes.length - 1);
        expect(() => decodeCbor(bytes.subarray(0, n))).toThrow(CborError);
      }),
      { numRuns: 300 },
    );
  });

  test('RFC 8949 Appendix A examples of the subset', () => {
    expect(decodeCbor(hex('00'))).toBe(0);
    expect(decodeCbor(hex('17'))).toBe(23);
    expect(decodeCbor(hex('1818'))).toBe(24);
    expect(decodeCbor(hex('1903e8'))).toBe(1000);
    expect(decodeCbor(hex('1a000f4240'))).toBe(1000000);
    expect(decodeCbor(hex('1b000000e8d4a51000'))).toBe(1000000000000);
    expect(decodeCbor(hex('20'))).toBe(-1);
    expect(decodeCbor(hex('3903e7'))).toBe(-1000);
    expect(decodeCbor(hex('f4'))).toBe(false);
    expect(decodeCbor(hex('f5'))).toBe(true);
    expect(decodeCbor(hex('f6'))).toBe(null);
    expect(decodeCbor(hex('40'))).toEqual(new Uint8Array());
    expect(decodeCbor(hex('4401020304'))).toEqual(Uint8Array.from([1, 2, 3, 4]));
    expect(decodeCbor(hex('6449455446'))).toBe('IETF');
    expect(decodeCbor(hex('62c3bc'))).toBe('\u00fc');
    expect(decodeCbor(hex('83010203'))).toEqual([1, 2, 3]);
    expect(decodeCbor(hex('a201020304'))).toEqual(
      new Map([
        [1, 2],
        [3, 4],
      ]),
    );
    expect(decodeCbor(hex('a26161016162820203'))).toEqual(
      new Map<string, CborValue>([
        ['a', 1],
        ['b', [2, 3]],
      ]),
    );
  });

  test.each([
    ['a tag', 'c11a514b67b0', /tag/],
    ['a half float', 'f93c00', /float/],
    ['a double', 'fb3ff199999999999a', /float/],
    ['undefined', 'f7', /simple value/],
    ['an indefinite-length array', '9f0102ff', /indefinite/],
    ['an indefinite-length byte string', '5f42010243030405ff', /indefinite/],
    ['a non-shortest integer', '1817', /non-shortest/],
    ['a non-shortest length', '5900020102', /non-shortest/],
    ['a duplicate map key', 'a201020103', /duplicate map key/],
    ['a map key that is not an integer or text', 'a1400102', /map key/],
    ['invalid UTF-8 text', '62c328', /UTF-8/],
    ['a byte string longer than the input', '5a7fffffff00', /truncated/],
    ['an array count longer than the input', '9a7fffffff', /too long|truncated/],
    ['an integer above 2^53 - 1', '1b0020000000000000', /2\^53/],
    ['a negative integer below -(2^53 - 1)', '3b001fffffffffffff', /below/],
    ['reserved additional information', '1c', /reserved/],
    ['trailing bytes', '0000', /unexpected bytes/],
    ['nothing at all', '', /truncated/],
  ])('refuses %s', (_what, bytes, message) => {
    expect(() => decodeCbor(hex(bytes))).toThrow(message);
  });

  test(`refuses nesting deeper than ${MAX_DEPTH} levels`, () => {
    const ok = hex(`${'81'.repeat(MAX_DEPTH)}00`);
    expect(() => decodeCbor(ok)).not.toThrow();
    expect(() => decodeCbor(hex(`${'81'.repeat(MAX_DEPTH + 1)}00`))).toThrow(/deeper/);
    // A deep input is refused without recursing through all of it.
    expect(() => decodeCbor(new Uint8Array(100_000).fill(0x81))).toThrow(CborError);
  });

  test('decodeCborPrefix says where the item ended', () => {
    expect(decodeCborPrefix(hex('8201 02 ff ff'))).toEqual({ value: [1, 2], end: 3 });
  });
});
