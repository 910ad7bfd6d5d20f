import { extractToken, parseBearer, readCookie } from './extract';

describe('extractToken', () => {
  test('header wins over cookie, cookie over query (Authentication 1)', () => {
    expect(
      extractToken({ authorization: 'Bearer h', cookie: 'auth_token=c', queryToken: 'q' }),
    ).toEqual({ token: 'h', source: 'header' });
    expect(extractToken({ cookie: 'x=1; auth_token=c', queryToken: 'q' })).toEqual({
      token: 'c',
      source: 'cookie',
    });
    expect(extractToken({ queryToken: 'q' })).toEqual({ token: 'q', source: 'query' });
    expect(extractToken({})).toBeNull();
  });

  test('a non-bearer Authorization header does not count as a token', () => {
    expect(extractToken({ authorization: 'Basic dTpw', queryToken: 'q' })).toEqual({
      token: 'q',
      source: 'query',
    });
  });

  test('ignores a query token that is not a single string', () => {
    expect(extractToken({ queryToken: ['a', 'b'] })).toBeNull();
  });
});

describe('parseBearer and readCookie', () => {
  test.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer  abc ', 'abc'],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    ['Token abc', undefined],
  ])('%j → %j', (header, want) => expect(parseBearer(header)).toBe(want));

  test('reads one cookie, quoted or percent-encoded', () => {
    expect(readCookie('a=1; auth_token="x%20y"; b=2', 'auth_token')).toBe('x y');
    expect(readCookie('auth_tokenx=1', 'auth_token')).toBeUndefined();
    expect(readCookie('auth_token=%E0%A4%A', 'auth_token')).toBeUndefined();
  });
});
