import { SvcError } from '@svc/core';
import {
  DEFAULT_APP_NAME,
  isLoopbackHost,
  magicLinkFor,
  validateBranding,
  validateEmailBaseUrl,
  validateMagicLinkUrlTemplate,
} from './index';

function refusal(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SvcError);
    expect((err as SvcError).code).toBe('VALIDATION_ERROR');
    expect((err as SvcError).status).toBe(400);
    return err as SvcError;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('validateBranding', () => {
  it('defaults appName to "Your account"', () => {
    expect(validateBranding()).toEqual({ appName: DEFAULT_APP_NAME });
    expect(validateBranding({})).toEqual({ appName: 'Your account' });
    expect(validateBranding({ brandColor: '#abc' })).toEqual({
      appName: 'Your account',
      brandColor: '#abc',
    });
  });

  describe('appName', () => {
    const accepted: [string, string][] = [
      ['one character', 'A'],
      ['80 characters', 'x'.repeat(80)],
      ['80 astral characters (counted as characters, not UTF-16 units)', '😀'.repeat(80)],
      ['non-ASCII and punctuation', 'Ça & <Co> "Ltd"'],
      ['inner spaces', 'My  App'],
    ];
    it.each(accepted)('accepts %s', (_, appName) => {
      expect(validateBranding({ appName }).appName).toBe(appName);
    });

    const refused: [string, unknown, RegExp][] = [
      ['empty', '', /1 to 80 characters, got 0/],
      ['81 characters', 'x'.repeat(81), /1 to 80 characters, got 81/],
      ['CR', 'App\rName', /control characters/],
      ['LF', 'App\nBcc: x@evil.com', /control characters/],
      ['CRLF', 'App\r\nName', /control characters/],
      ['NUL', 'App\0', /control characters/],
      ['TAB', 'App\tName', /control characters/],
      ['ESC', 'App\u001b[31m', /control characters/],
      ['DEL', 'App\u007f', /control characters/],
      ['C1 control (NEL)', 'App\u0085', /control characters/],
      ['line separator U+2028', 'App\u2028Name', /control characters/],
      ['a number', 42, /must be a string/],
      ['null', null, /must be a string/],
    ];
    it.each(refused)('refuses %s', (_, appName, message) => {
      expect(refusal(() => validateBranding({ appName } as never)).message).toMatch(message);
    });
  });

  describe('logoUrl and darkLogoUrl', () => {
    const accepted: [string, string][] = [
      ['https', 'https://cdn.example.com/logo.png'],
      ['https with port, query and fragment', 'https://cdn.example.com:8443/logo.svg?v=2#x'],
      ['http on localhost', 'http://localhost:3000/logo.png'],
      ['http on LOCALHOST (case-insensitive)', 'http://LOCALHOST/logo.png'],
      ['http on 127.0.0.1', 'http://127.0.0.1/logo.png'],
      ['http on 127.255.255.254 (the whole /8)', 'http://127.255.255.254/logo.png'],
      ['http on [::1]', 'http://[::1]:8080/logo.png'],
      // a valid https URL with markup in it: accepted here, attribute-escaped by the templates
      ['a quote-breaking attempt', 'https://x.com/"><script>alert(1)</script>'],
      [
        '2048 characters',
        `https://cdn.example.com/${'a'.repeat(2048 - 'https://cdn.example.com/'.length)}`,
      ],
    ];
    it.each(accepted)('accepts %s', (_, url) => {
      expect(validateBranding({ logoUrl: url }).logoUrl).toBe(url);
      expect(validateBranding({ darkLogoUrl: url }).darkLogoUrl).toBe(url);
    });

    const refused: [string, string, RegExp][] = [
      ['http on a public host', 'http://cdn.example.com/logo.png', /https:\/\//],
      [
        'http on localhost.evil.com (look-alike)',
        'http://localhost.evil.com/logo.png',
        /https:\/\//,
      ],
      [
        'http on 127.0.0.1.evil.com (look-alike)',
        'http://127.0.0.1.evil.com/logo.png',
        /https:\/\//,
      ],
      ['http with localhost as user info', 'http://localhost@evil.com/logo.png', /https:\/\//],
      [
        'http on evil.com with a localhost path',
        'http://evil.com/localhost/logo.png',
        /https:\/\//,
      ],
      ['http on 128.0.0.1', 'http://128.0.0.1/logo.png', /https:\/\//],
      ['http on 0.0.0.0', 'http://0.0.0.0/logo.png', /https:\/\//],
      ['http on [::2]', 'http://[::2]/logo.png', /https:\/\//],
      ['data:', 'data:image/png;base64,iVBORw0KGgo=', /data: is refused/],
      ['javascript:', 'javascript:alert(1)', /javascript: is refused/],
      ['JavaScript: mixed case', 'JavaScript:alert(1)', /javascript: is refused/],
      ['file:', 'file:///etc/passwd', /file: is refused/],
      ['ftp:', 'ftp://example.com/logo.png', /ftp: is refused/],
      ['a relative URL', '/logo.png', /absolute URL/],
      ['a protocol-relative URL', '//cdn.example.com/logo.png', /absolute URL/],
      ['a space', 'https://cdn.example.com/my logo.png', /whitespace/],
      [
        'a newline (which new URL would silently strip)',
        'https://cdn.example.com/lo\ngo.png',
        /whitespace/,
      ],
      [
        '2049 characters',
        `https://cdn.example.com/${'a'.repeat(2049 - 'https://cdn.example.com/'.length)}`,
        /at most 2048 characters, got 2049/,
      ],
    ];
    it.each(refused)('refuses %s', (_, url, message) => {
      expect(refusal(() => validateBranding({ logoUrl: url })).message).toMatch(
        /branding\.logoUrl/,
      );
      expect(refusal(() => validateBranding({ darkLogoUrl: url })).message).toMatch(message);
    });

    it('refuses a non-string', () => {
      expect(refusal(() => validateBranding({ logoUrl: 1 } as never)).message).toMatch(
        /logoUrl must be a string/,
      );
    });
  });

  describe('brandColor', () => {
    const accepted = [
      '#abc',
      '#ABC',
      '#1a73e8',
      '#1A73E8',
      'oklch(62% 0.19 259)',
      'oklch(0.62 0.19 259)',
      'oklch(62.5% 0.19 259.5deg)',
      'oklch(62% 0.19 259 / 50%)',
      'oklch(62% 0.19 259/0.5)',
      'oklch( 62% 0.19 259 )',
      'oklch(62% 0.19 none)',
      'OKLCH(62% 0.19 259)',
    ];
    it.each(accepted)('accepts %s', (brandColor) => {
      expect(validateBranding({ brandColor }).brandColor).toBe(brandColor);
    });

    const refused: [string, unknown][] = [
      ['4-digit hex', '#abcd'],
      ['8-digit hex', '#1a73e8ff'],
      ['5-digit hex', '#1a73e'],
      ['hex without #', '1a73e8'],
      ['non-hex digits', '#ggg'],
      ['named colour', 'red'],
      ['named colour rebeccapurple', 'rebeccapurple'],
      ['comma-separated oklch', 'oklch(62%, 0.19, 259)'],
      ['oklch with two values', 'oklch(62% 0.19)'],
      ['oklch with four values', 'oklch(62% 0.19 259 1)'],
      ['rgb()', 'rgb(26, 115, 232)'],
      ['space-separated rgb()', 'rgb(26 115 232)'],
      ['hsl()', 'hsl(210 80% 50%)'],
      ['oklab()', 'oklab(0.62 0.1 0.1)'],
      ['CSS injection', '#abc; background:url(https://evil.com)'],
      ['oklch with trailing junk', 'oklch(62% 0.19 259) red'],
      ['oklch with CSS injection', 'oklch(62% 0.19 259);x:y'],
      ['empty', ''],
      ['a number', 0xabc],
    ];
    it.each(refused)('refuses %s', (_, brandColor) => {
      expect(refusal(() => validateBranding({ brandColor } as never)).message).toMatch(
        /branding\.brandColor must be a 3- or 6-digit hex/,
      );
    });
  });

  it('refuses an unknown key and a non-object', () => {
    expect(refusal(() => validateBranding({ appname: 'x' } as never)).message).toMatch(
      /branding\.appname is not a branding key/,
    );
    expect(refusal(() => validateBranding('Acme' as never)).message).toMatch(
      /branding must be an object/,
    );
    expect(refusal(() => validateBranding([] as never)).message).toMatch(
      /branding must be an object/,
    );
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(validateBranding({ appName: 'Acme' }))).toBe(true);
  });
});

describe('isLoopbackHost', () => {
  const cases: [string, boolean][] = [
    ['http://localhost/', true],
    ['http://127.0.0.1/', true],
    ['http://127.1/', true], // normalized by the WHATWG parser
    ['http://0x7f.0.0.1/', true],
    ['http://127.200.3.4/', true],
    ['http://[::1]/', true],
    ['http://[0:0:0:0:0:0:0:1]/', true],
    ['http://localhost.evil.com/', false],
    ['http://localhost./', false],
    ['http://evil-localhost/', false],
    ['http://127.0.0.1.nip.io/', false],
    ['http://126.0.0.1/', false],
    ['http://[::ffff:127.0.0.1]/', false],
    ['http://10.0.0.1/', false],
  ];
  it.each(cases)('%s → %s', (url, expected) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(expected);
  });
});

describe('validateMagicLinkUrlTemplate', () => {
  it('defaults to <emailBaseUrl>/auth/magic?token={token}, trailing slashes removed', () => {
    expect(validateMagicLinkUrlTemplate(undefined, 'https://app.example.com')).toBe(
      'https://app.example.com/auth/magic?token={token}',
    );
    expect(validateMagicLinkUrlTemplate(undefined, 'https://app.example.com/base/')).toBe(
      'https://app.example.com/base/auth/magic?token={token}',
    );
    expect(validateMagicLinkUrlTemplate(undefined, undefined)).toBeUndefined();
  });

  const accepted = [
    'https://app.example.com/magic?token={token}',
    'https://app.example.com/magic/{token}',
    'https://app.example.com/magic#token={token}',
    'https://app.example.com/magic?next=%2F&token={token}&x=1',
    'http://localhost:3000/magic?token={token}',
    'http://127.0.0.1:3000/magic?token={token}',
    'http://127.9.9.9/magic?token={token}',
    'http://[::1]:3000/magic?token={token}',
  ];
  it.each(accepted)('accepts %s', (template) => {
    expect(validateMagicLinkUrlTemplate(template, 'https://ignored.example.com')).toBe(template);
  });

  const refused: [string, string, RegExp][] = [
    [
      'zero placeholders',
      'https://app.example.com/magic',
      /exactly one \{token\} placeholder, found 0/,
    ],
    ['two placeholders', 'https://app.example.com/magic?token={token}&again={token}', /found 2/],
    ['three placeholders', 'https://app.example.com/{token}/{token}?t={token}', /found 3/],
    ['a differently named placeholder', 'https://app.example.com/magic?token={TOKEN}', /found 0/],
    ['http on a public host', 'http://app.example.com/magic?token={token}', /https:\/\//],
    ['http on localhost.evil.com', 'http://localhost.evil.com/magic?token={token}', /https:\/\//],
    ['http on 127.0.0.1.evil.com', 'http://127.0.0.1.evil.com/magic?token={token}', /https:\/\//],
    [
      'http with localhost as user info',
      'http://localhost@evil.com/magic?token={token}',
      /https:\/\//,
    ],
    ['javascript:', 'javascript:alert("{token}")', /javascript: is refused/],
    ['data:', 'data:text/html,{token}', /data: is refused/],
    ['file:', 'file:///tmp/{token}', /file: is refused/],
    ['a custom app scheme', 'myapp://magic?token={token}', /myapp: is refused/],
    ['a relative template', '/auth/magic?token={token}', /absolute URL/],
    ['the token in the host', 'https://{token}.example.com/magic', /scheme, host or port/],
    ['the token in the user info', 'https://{token}@example.com/magic', /scheme, host or port/],
    ['whitespace', 'https://app.example.com/magic ?token={token}', /whitespace/],
  ];
  it.each(refused)('refuses %s', (_, template, message) => {
    expect(
      refusal(() => validateMagicLinkUrlTemplate(template, 'https://app.example.com')).message,
    ).toMatch(message);
  });

  it('refuses a bad emailBaseUrl when the default template is built from it', () => {
    expect(
      refusal(() => validateMagicLinkUrlTemplate(undefined, 'app.example.com')).message,
    ).toMatch(/emailBaseUrl/);
  });
});

describe('validateEmailBaseUrl', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['http://app.internal:8080/x//', 'http://app.internal:8080/x'],
  ])('accepts %s as %s', (input, expected) => {
    expect(validateEmailBaseUrl(input)).toBe(expected);
  });
  it.each([
    'app.example.com',
    'javascript:alert(1)',
    'ftp://x.com',
    'https://app.example.com/?a=1',
    'https://app.example.com/#x',
    'https://a .com',
    '',
  ])('refuses %s', (input) => {
    expect(refusal(() => validateEmailBaseUrl(input)).message).toMatch(/emailBaseUrl/);
  });
});

describe('magicLinkFor', () => {
  it.each([
    ['abc', 'https://a.example.com/m?token=abc'],
    ['a b&c=d/e?f#g', 'https://a.example.com/m?token=a%20b%26c%3Dd%2Fe%3Ff%23g'],
    ['$&$1$$', 'https://a.example.com/m?token=%24%26%241%24%24'], // no String.replace patterns
    ['<script>"', 'https://a.example.com/m?token=%3Cscript%3E%22'],
  ])('puts %j URL-encoded into the placeholder', (token, expected) => {
    expect(magicLinkFor('https://a.example.com/m?token={token}', token)).toBe(expected);
  });
});
