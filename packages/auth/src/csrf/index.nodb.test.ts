import { SvcError } from '@svc/core';
import { checkCookieRequestOrigin, originOf, parseOrigin, type CookieRequest } from '.';

// The attack: a page on another site makes the browser POST to this server; the browser attaches
// the auth_token cookie, so without this check the request runs as the signed-in user.
describe('checkCookieRequestOrigin', () => {
  const base: CookieRequest = {
    method: 'POST',
    tokenSource: 'cookie',
    origin: undefined,
    secFetchSite: undefined,
    ownOrigin: 'https://db.example.com',
    trustedOrigins: new Set(['https://app.example.com']),
  };
  const outcome = (changes: Partial<CookieRequest>) => {
    try {
      checkCookieRequestOrigin({ ...base, ...changes });
      return 'pass';
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      return `${err.status} ${err.code}`;
    }
  };

  test.each<[string, Partial<CookieRequest>, string]>([
    ['a foreign Origin', { origin: 'https://evil.example' }, '403 ACCESS_DENIED'],
    [
      'a sibling subdomain (same site, another origin)',
      { origin: 'https://blog.example.com' },
      '403 ACCESS_DENIED',
    ],
    ['the opaque origin of a sandboxed frame', { origin: 'null' }, '403 ACCESS_DENIED'],
    ['another scheme of our own host', { origin: 'http://db.example.com' }, '403 ACCESS_DENIED'],
    [
      'Sec-Fetch-Site: cross-site without Origin',
      { secFetchSite: 'cross-site' },
      '403 ACCESS_DENIED',
    ],
    [
      'a foreign Origin on DELETE',
      { method: 'DELETE', origin: 'https://evil.example' },
      '403 ACCESS_DENIED',
    ],
    [
      'a foreign Origin when our own origin is unknown',
      { origin: 'https://evil.example', ownOrigin: undefined },
      '403 ACCESS_DENIED',
    ],
    ['our own Origin', { origin: 'https://db.example.com', secFetchSite: 'same-origin' }, 'pass'],
    [
      'a trusted Origin (which browsers mark cross-site)',
      { origin: 'https://app.example.com', secFetchSite: 'cross-site' },
      'pass',
    ],
    ['no Origin and no Sec-Fetch-Site (not a browser page)', {}, 'pass'],
    ['Sec-Fetch-Site: same-site without Origin', { secFetchSite: 'same-site' }, 'pass'],
    ['Sec-Fetch-Site: none (typed in the address bar)', { secFetchSite: 'none' }, 'pass'],
    [
      'a bearer token from a foreign page',
      { tokenSource: 'header', origin: 'https://evil.example' },
      'pass',
    ],
    [
      'a ?token= from a foreign page',
      { tokenSource: 'query', origin: 'https://evil.example' },
      'pass',
    ],
    ['GET from a foreign page', { method: 'GET', origin: 'https://evil.example' }, 'pass'],
    ['HEAD from a foreign page', { method: 'HEAD', origin: 'https://evil.example' }, 'pass'],
    ['OPTIONS from a foreign page', { method: 'OPTIONS', secFetchSite: 'cross-site' }, 'pass'],
  ])('%s', (_name, changes, want) => {
    expect(outcome(changes)).toBe(want);
  });

  test('the refusal says why and what to do', () => {
    expect(() => checkCookieRequestOrigin({ ...base, origin: 'https://evil.example' })).toThrow(
      expect.objectContaining({
        code: 'ACCESS_DENIED',
        status: 403,
        hint: expect.stringContaining('Authorization header'),
      }),
    );
  });
});

describe('parseOrigin', () => {
  test.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.COM', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://localhost:80', 'http://localhost'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://[0:0::1]:8080', 'http://[::1]:8080'],
    ['capacitor://localhost', 'capacitor://localhost'],
    ['chrome-extension://abcdefghijklmnop', 'chrome-extension://abcdefghijklmnop'],
  ])('%s → %s', (text, want) => {
    expect(parseOrigin(text)).toBe(want);
  });

  test.each([
    'https://app.example.com/',
    'https://app.example.com/path',
    'https://app.example.com?x=1',
    'https://user@app.example.com',
    'app.example.com',
    '//app.example.com',
    '*',
    'null',
    '',
    'https://',
    'https://app.example.com:0',
    'https://app.example.com:70000',
    'https://-bad.example',
    'https://exämple.com',
    'http://1.2.3.999',
    ' https://app.example.com',
  ])('%j is not an origin', (text) => {
    expect(parseOrigin(text)).toBeUndefined();
  });
});

describe('originOf', () => {
  test.each<[string, string | undefined, string | undefined]>([
    ['http', '127.0.0.1:5656', 'http://127.0.0.1:5656'],
    ['https:', 'DB.Example.com:443', 'https://db.example.com'],
    ['http', 'db.example.com:80', 'http://db.example.com'],
    ['http', undefined, undefined],
    ['http', '', undefined],
    ['http', 'evil.example/path', undefined],
    ['http', 'user@evil.example', undefined],
    ['http', 'a b', undefined],
    ['ftp', 'db.example.com', undefined],
  ])('%s + %j → %j', (protocol, host, want) => {
    expect(originOf(protocol, host)).toBe(want);
  });
});
