import fc from 'fast-check';

import {
  decodeQuotedPrintable,
  encodeQuotedPrintable,
  normalizeLineBreaks,
  QP_LINE_LENGTH,
} from './quoted-printable';

describe('quoted-printable', () => {
  test('keeps ASCII readable and escapes "=", non-ASCII and trailing spaces', () => {
    expect(encodeQuotedPrintable('a=b é \r\n')).toBe('a=3Db =C3=A9=20\r\n');
  });

  test('ends a text without a final line break with a soft break', () => {
    expect(encodeQuotedPrintable('hello')).toBe('hello=\r\n');
    expect(decodeQuotedPrintable('hello=\r\n')).toBe('hello');
    expect(encodeQuotedPrintable('')).toBe('');
  });

  test('normalises LF and CR line breaks to CRLF', () => {
    expect(normalizeLineBreaks('a\nb\rc\r\nd\n\r')).toBe('a\r\nb\r\nc\r\nd\r\n\r\n');
    expect(encodeQuotedPrintable('a\nb\n')).toBe('a\r\nb\r\n');
  });

  test('splits long lines with soft breaks, never inside an escape', () => {
    const encoded = encodeQuotedPrintable(`${'x'.repeat(74)}é${'y'.repeat(200)}\r\n`);
    for (const l of encoded.split('\r\n')) expect(l.length).toBeLessThanOrEqual(QP_LINE_LENGTH);
    expect(encoded).toContain('=\r\n=C3=A9');
    expect(decodeQuotedPrintable(encoded)).toBe(`${'x'.repeat(74)}é${'y'.repeat(200)}\r\n`);
  });

  test('leaves leading dots alone (dot-stuffing is the transport’s job)', () => {
    expect(encodeQuotedPrintable('.\r\n.x\r\n')).toBe('.\r\n.x\r\n');
  });

  test('whatever text goes in comes out, in 7-bit lines of at most 76 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const encoded = encodeQuotedPrintable(text);
        expect(encoded).toMatch(/^[\t\x20-\x7e\r\n]*$/);
        for (const l of encoded.split('\r\n')) expect(l.length).toBeLessThanOrEqual(QP_LINE_LENGTH);
        expect(decodeQuotedPrintable(encoded)).toBe(normalizeLineBreaks(text));
      }),
      { numRuns: 400 },
    );
  });

  test('round-trips lines of spaces, tabs and dots exactly', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(' ', '\t', '.', '=', 'a', '\r\n', '\n'),
          maxLength: 200,
        }),
        (text) => {
          const encoded = encodeQuotedPrintable(text);
          for (const l of encoded.split('\r\n')) expect(l).not.toMatch(/[ \t]$/);
          expect(decodeQuotedPrintable(encoded)).toBe(normalizeLineBreaks(text));
        },
      ),
      { numRuns: 400 },
    );
  });
});
