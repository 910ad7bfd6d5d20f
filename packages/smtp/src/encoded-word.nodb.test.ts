import fc from 'fast-check';

import { decodeEncodedWords, encodeWords } from './encoded-word';

describe('encodeWords', () => {
  test('encodes UTF-8 as B words', () => {
    expect(encodeWords('Grüße')).toEqual(['=?UTF-8?B?R3LDvMOfZQ==?=']);
  });

  test('splits long text into words of at most 75 characters, never inside a character', () => {
    const text = '日本語のメールの件名はとても長くなることがあります。'.repeat(3);
    const words = encodeWords(text);
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      const payload = /^=\?UTF-8\?B\?(.*)\?=$/.exec(word)?.[1] ?? '';
      // Each word decodes on its own: no character was cut in half.
      expect(Buffer.from(Buffer.from(payload, 'base64').toString('utf8'), 'utf8')).toEqual(
        Buffer.from(payload, 'base64'),
      );
    }
  });

  test('keeps surrogate pairs (emoji) whole', () => {
    const words = encodeWords('😀'.repeat(40), 4);
    expect(words).toHaveLength(40);
  });

  test('an empty text is one empty word', () => {
    expect(encodeWords('')).toEqual(['=?UTF-8?B??=']);
  });
});

describe('decodeEncodedWords', () => {
  test('decodes B and Q words and drops the white space between adjacent words', () => {
    expect(decodeEncodedWords('=?UTF-8?B?R3LDvA==?=  =?utf-8?Q?=C3=9Fe_mit_Q?=')).toBe(
      'Grüße mit Q',
    );
  });

  test('keeps text and the white space between a word and plain text', () => {
    expect(decodeEncodedWords('Re: =?ISO-8859-1?Q?caf=E9?= ok')).toBe('Re: café ok');
  });

  test('joins bytes of adjacent words, so a character split between words survives', () => {
    const bytes = Buffer.from('é', 'utf8');
    const a = bytes.subarray(0, 1).toString('base64');
    const b = bytes.subarray(1).toString('base64');
    expect(decodeEncodedWords(`=?UTF-8?B?${a}?= =?UTF-8?B?${b}?=`)).toBe('é');
  });
});

describe('encoded word properties', () => {
  test('whatever goes in comes out, whatever the word size', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 4, max: 45 }),
        (text, maxBytes) => {
          expect(decodeEncodedWords(encodeWords(text, maxBytes).join('\r\n '))).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
