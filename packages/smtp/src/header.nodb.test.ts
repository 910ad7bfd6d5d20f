import fc from 'fast-check';

import { decodeEncodedWords } from './encoded-word';
import { addressListHeader, encodePhrase, MAX_LINE_OCTETS, unstructuredHeader } from './header';

/** What a reader gets back from a header line: unfold, drop the name, trim, decode. */
function readBack(header: string, name: string): string {
  const unfolded = header.replace(/\r\n(?=[ \t])/g, '');
  expect(unfolded.startsWith(`${name}:`)).toBe(true);
  return decodeEncodedWords(unfolded.slice(name.length + 1).trim());
}

describe('unstructuredHeader', () => {
  test('plain ASCII stays as it is', () => {
    expect(unstructuredHeader('Subject', 'Your sign-in link')).toBe('Subject: Your sign-in link');
  });

  test('non-ASCII becomes encoded words', () => {
    expect(unstructuredHeader('Subject', 'Grüße')).toBe('Subject: =?UTF-8?B?R3LDvMOfZQ==?=');
  });

  test('text that looks like an encoded word, or has edge spaces, is encoded so it survives', () => {
    expect(unstructuredHeader('Subject', 'a =?UTF-8?B?eA==?= b')).toMatch(
      /^Subject: =\?UTF-8\?B\?/,
    );
    expect(readBack(unstructuredHeader('Subject', '  padded  '), 'Subject')).toBe('  padded  ');
  });

  test('long ASCII is folded at white space into lines of at most 78', () => {
    const subject = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const header = unstructuredHeader('Subject', subject);
    expect(header.split('\r\n').length).toBeGreaterThan(1);
    for (const l of header.split('\r\n')) expect(l.length).toBeLessThanOrEqual(78);
    expect(readBack(header, 'Subject')).toBe(subject);
  });

  test('a token too long to fold under 998 octets is encoded instead', () => {
    const header = unstructuredHeader('Subject', `x${'y'.repeat(1200)}`);
    for (const l of header.split('\r\n')) expect(l.length).toBeLessThanOrEqual(78);
    expect(readBack(header, 'Subject')).toBe(`x${'y'.repeat(1200)}`);
  });

  test('any subject round-trips, in lines of at most 998 octets with no white-space-only line', () => {
    const subject = fc.string({
      unit: fc.oneof(
        fc.constantFrom(' ', '\t', '=', '?', 'a', 'b'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 300,
    });
    fc.assert(
      fc.property(
        subject.filter((s) => !/[\r\n]/.test(s)),
        (text) => {
          const header = unstructuredHeader('Subject', text);
          expect(header).toMatch(/^[\x00-\x7f]*$/);
          for (const l of header.split('\r\n')) {
            expect(l.length).toBeLessThanOrEqual(MAX_LINE_OCTETS);
            expect(l).toMatch(/[^ \t]/);
          }
          expect(readBack(header, 'Subject')).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('encodePhrase', () => {
  test('atoms stay, specials are quoted, non-ASCII is encoded', () => {
    expect(encodePhrase('Ann Example')).toBe('Ann Example');
    expect(encodePhrase('Example, Inc. "Support"')).toBe('"Example, Inc. \\"Support\\""');
    expect(encodePhrase('Zoë')).toBe('=?UTF-8?B?Wm/Dqw==?=');
  });
});

describe('addressListHeader', () => {
  test('joins addresses with commas and folds between them', () => {
    const addresses = Array.from({ length: 8 }, (_, i) => `user${i}@example.com`);
    const header = addressListHeader('To', addresses);
    for (const l of header.split('\r\n')) expect(l.length).toBeLessThanOrEqual(78);
    expect(header.replace(/\r\n/g, '')).toBe(`To: ${addresses.join(', ')}`);
  });
});
