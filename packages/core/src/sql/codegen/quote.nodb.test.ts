import fc from 'fast-check';
import { pgName } from './names';
import { quoteBytea, quoteIdent, quoteLiteral, unquoteIdent, unquoteLiteral } from './quote';

describe('quote', () => {
  it.each([
    ['User', '"User"'],
    ['my "name"', '"my ""name"""'],
    ['select', '"select"'],
    ['User.friends', '"User.friends"'],
  ])('quoteIdent(%j) = %s', (input, expected) => {
    expect(quoteIdent(input)).toBe(expected);
  });

  it.each([
    ["it's", "'it''s'"],
    ['back\\slash', "E'back\\\\slash'"],
    ["it's a \\", "E'it''s a \\\\'"],
    ['', "''"],
  ])('quoteLiteral(%j) = %s', (input, expected) => {
    expect(quoteLiteral(input)).toBe(expected);
  });

  it('refuses NUL', () => {
    expect(() => quoteLiteral('a\u0000b')).toThrow(/NUL/);
    expect(() => quoteIdent('a\u0000b')).toThrow(/NUL/);
  });

  it('writes bytea in hex', () => {
    expect(quoteBytea(new Uint8Array([0, 255, 97]))).toBe("E'\\\\x00ff61'::bytea");
  });

  const text = fc.string({ unit: 'binary' }).filter((s) => !s.includes('\u0000'));

  it('quoteLiteral: balanced quotes, round-trips', () => {
    fc.assert(
      fc.property(text, (s) => {
        const quoted = quoteLiteral(s);
        const body = quoted.startsWith('E') ? quoted.slice(1) : quoted;
        // Every quote inside is doubled: removing the pairs leaves only the two delimiters.
        expect(body.slice(1, -1).replace(/''/g, '')).not.toContain("'");
        // An escape string exactly when there is a backslash, which it then doubles.
        expect(quoted.startsWith('E')).toBe(s.includes('\\'));
        expect(unquoteLiteral(quoted)).toBe(s);
      }),
    );
  });

  it('quoteIdent: balanced quotes, round-trips', () => {
    fc.assert(
      fc.property(text, (s) => {
        const quoted = quoteIdent(s);
        expect(quoted.slice(1, -1).replace(/""/g, '')).not.toContain('"');
        expect(unquoteIdent(quoted)).toBe(s);
      }),
    );
  });

  it('pgName keeps short names and hashes long ones within 63 bytes', () => {
    expect(pgName('User.email.exclusive')).toBe('User.email.exclusive');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }), (s) => {
        const name = pgName(s);
        expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(63);
        expect(pgName(s)).toBe(name);
      }),
    );
    expect(pgName('x'.repeat(70))).not.toBe(pgName(`${'x'.repeat(69)}y`));
  });
});
