import { formatMailbox, isValidDomain, parseMailbox } from './address';
import { SmtpError } from './errors';

const parse = (input: unknown) => parseMailbox(input, 'to', 'EMESSAGE');

describe('parseMailbox', () => {
  test.each([
    ['user@example.com', { address: 'user@example.com', name: undefined }],
    ['  user@example.com  ', { address: 'user@example.com', name: undefined }],
    ['<user@example.com>', { address: 'user@example.com', name: undefined }],
    ['Ann Example <ann@example.com>', { address: 'ann@example.com', name: 'Ann Example' }],
    [
      '"Example, Inc. \\"Support\\"" <help@example.com>',
      { address: 'help@example.com', name: 'Example, Inc. "Support"' },
    ],
    ['Zoë <zoe@example.com>', { address: 'zoe@example.com', name: 'Zoë' }],
    [
      'first.last+tag@sub.example.org',
      { address: 'first.last+tag@sub.example.org', name: undefined },
    ],
    ['"odd local"@example.com', { address: '"odd local"@example.com', name: undefined }],
    ['user@[192.0.2.1]', { address: 'user@[192.0.2.1]', name: undefined }],
  ])('accepts %s', (input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  test.each([
    ['user@example.com\r\nBcc: victim@example.com', /CR and LF/],
    ['Name\n <user@example.com>', /CR and LF/],
    ['user@example.com\rX: y', /CR and LF/],
    ['user\0@example.com', /control characters/],
    ['', /required/],
    ['user', /local-part@domain/],
    ['user@', /local-part@domain/],
    ['@example.com', /local-part@domain/],
    ['us er@example.com', /invalid local part/],
    ['user..x@example.com', /invalid local part/],
    ['user@exa_mple.example.com', /invalid domain/],
    ['user@-bad.example.com', /invalid domain/],
    ['user@example..com', /invalid domain/],
    ['ü@example.com', /SMTPUTF8/],
    ['user@exämple.example.com', /SMTPUTF8/],
    ['a@example.com, b@example.com', /pass an array/],
    ['Ann <ann@example.com', /invalid local part|invalid/],
    ['Ann, Bob <ann@example.com>', /must be quoted/],
    [`${'x'.repeat(65)}@example.com`, /64/],
  ])('refuses %j', (input, message) => {
    expect(() => parse(input)).toThrow(message);
  });

  test('refuses non-strings with the field name and code', () => {
    let error: unknown;
    try {
      parse(42);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SmtpError);
    expect(error).toMatchObject({ code: 'EMESSAGE', message: expect.stringMatching(/^to: /) });
  });
});

describe('formatMailbox', () => {
  test('writes the display name as a phrase', () => {
    expect(formatMailbox({ address: 'a@example.com', name: undefined })).toBe('a@example.com');
    expect(formatMailbox({ address: 'a@example.com', name: 'Ann' })).toBe('Ann <a@example.com>');
    expect(formatMailbox({ address: 'a@example.com', name: 'A, B' })).toBe(
      '"A, B" <a@example.com>',
    );
  });
});

describe('isValidDomain', () => {
  test('names and address literals', () => {
    expect(isValidDomain('localhost')).toBe(true);
    expect(isValidDomain('mail.example.com')).toBe(true);
    expect(isValidDomain('[127.0.0.1]')).toBe(true);
    expect(isValidDomain('[IPv6:::1]')).toBe(true);
    expect(isValidDomain('bad host')).toBe(false);
    expect(isValidDomain('[300.0.0.1]')).toBe(false);
    expect(isValidDomain('')).toBe(false);
  });
});
