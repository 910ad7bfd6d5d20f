import fc from 'fast-check';

import { dotStuff, dotUnstuff } from './dot-stuffing';

describe('dotStuff', () => {
  test('doubles a leading dot on every line and adds the terminator', () => {
    expect(dotStuff('.\r\n..x\r\na.b\r\n.end')).toBe('..\r\n...x\r\na.b\r\n..end\r\n.\r\n');
  });

  test('adds the CRLF before the terminator only when missing', () => {
    expect(dotStuff('a\r\n')).toBe('a\r\n.\r\n');
    expect(dotStuff('a')).toBe('a\r\n.\r\n');
    expect(dotStuff('')).toBe('.\r\n');
  });

  test('a line that is only "." cannot end the data early', () => {
    expect(dotStuff('a\r\n.\r\nb\r\n')).not.toContain('\r\n.\r\nb');
  });
});

// CRLF-normalised text made of lines that like to start with dots.
const line = fc.string({ unit: fc.constantFrom('.', 'a', ' ', 'é', '\t'), maxLength: 8 });
const message = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
  .map(([lines, crlfEnd]) => lines.join('\r\n') + (crlfEnd && lines.length > 0 ? '\r\n' : ''));

describe('dot-stuffing properties', () => {
  test('unstuffing gives back the message (with the CRLF that ends its last line)', () => {
    fc.assert(
      fc.property(message, (text) => {
        const expected = text === '' || text.endsWith('\r\n') ? text : `${text}\r\n`;
        expect(dotUnstuff(dotStuff(text))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  test('the terminator appears exactly once, at the end', () => {
    fc.assert(
      fc.property(message, (text) => {
        const stuffed = dotStuff(text);
        const withStart = `\r\n${stuffed}`;
        expect(withStart.indexOf('\r\n.\r\n')).toBe(withStart.length - 5);
      }),
      { numRuns: 500 },
    );
  });
});
