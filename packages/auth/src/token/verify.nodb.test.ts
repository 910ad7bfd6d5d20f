import { createHmac, randomUUID } from 'node:crypto';
import { SvcError } from '@svc/core';
import { authContextFromClaims, createTokenVerifier } from './verify';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const NOW = 1_800_000_000_000;
const verifier = createTokenVerifier({ jwtSecret: SECRET, now: () => NOW });
const claims = (over: Record<string, unknown> = {}) => ({
  sub: randomUUID(),
  email: 'ada@example.com',
  iat: NOW / 1000,
  exp: NOW / 1000 + 60,
  jti: randomUUID(),
  roles: ['editor'],
  ...over,
});
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof SvcError ? `${err.status} ${err.code}` : String(err);
  }
  return 'no error';
};

describe('createTokenVerifier', () => {
  test('verifies a token it signed and keeps the claims', () => {
    const c = claims({ username: 'ada' });
    const out = verifier.verify(verifier.sign(c));
    expect(out).toMatchObject({ ...c, aud: 'svc-api', iss: 'svc' });
  });

  test('refuses a secret under 32 characters', () => {
    expect(() => createTokenVerifier({ jwtSecret: 'short' })).toThrow(/at least 32 characters/);
  });

  test('an expired token is TOKEN_EXPIRED', () => {
    const t = verifier.sign(claims({ iat: NOW / 1000 - 120, exp: NOW / 1000 - 60 }));
    expect(codeOf(() => verifier.verify(t))).toBe('401 TOKEN_EXPIRED');
  });

  // Attack: a client edits the payload (roles) and keeps the old signature.
  test('a tampered payload is INVALID_TOKEN', () => {
    const [h, , s] = verifier.sign(claims()).split('.');
    const forged = `${h}.${b64(claims({ roles: ['superuser'] }))}.${s}`;
    expect(codeOf(() => verifier.verify(forged))).toBe('401 INVALID_TOKEN');
  });

  // Attack: `alg: none` asks a naive verifier to skip the signature check.
  test('an alg:none token is INVALID_TOKEN', () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(), aud: 'svc-api', iss: 'svc' })}.`;
    expect(codeOf(() => verifier.verify(unsigned))).toBe('401 INVALID_TOKEN');
  });

  // Attack: a token signed with HS512 by the same secret must not pass as HS256.
  test('another algorithm with the same secret is INVALID_TOKEN', () => {
    const head = b64({ alg: 'HS512', typ: 'JWT' });
    const body = b64({ ...claims(), aud: 'svc-api', iss: 'svc' });
    const sig = createHmac('sha512', SECRET).update(`${head}.${body}`).digest('base64url');
    expect(codeOf(() => verifier.verify(`${head}.${body}.${sig}`))).toBe('401 INVALID_TOKEN');
  });

  test('a wrong audience or issuer is INVALID_TOKEN', () => {
    const other = createTokenVerifier({ jwtSecret: SECRET, jwtAudience: 'other', now: () => NOW });
    expect(codeOf(() => verifier.verify(other.sign(claims())))).toBe('401 INVALID_TOKEN');
    const otherIss = createTokenVerifier({ jwtSecret: SECRET, jwtIssuer: 'evil', now: () => NOW });
    expect(codeOf(() => verifier.verify(otherIss.sign(claims())))).toBe('401 INVALID_TOKEN');
  });

  test('a token signed with another secret is INVALID_TOKEN', () => {
    const other = createTokenVerifier({ jwtSecret: `${SECRET}-other`, now: () => NOW });
    expect(codeOf(() => verifier.verify(other.sign(claims())))).toBe('401 INVALID_TOKEN');
  });

  describe('a token verified once is known by its text; only its expiry is checked again', () => {
    test('past its expiry it is TOKEN_EXPIRED, however often it was verified before', () => {
      let now = NOW;
      const v = createTokenVerifier({ jwtSecret: SECRET, now: () => now });
      const t = v.sign(claims());
      expect(v.verify(t)).toMatchObject({ exp: NOW / 1000 + 60 });
      expect(v.verify(t)).toMatchObject({ exp: NOW / 1000 + 60 });
      now = NOW + 59_999;
      expect(codeOf(() => v.verify(t))).toBe('no error');
      now = NOW + 60_000;
      expect(codeOf(() => v.verify(t))).toBe('401 TOKEN_EXPIRED');
      expect(codeOf(() => v.verify(t))).toBe('401 TOKEN_EXPIRED');
    });

    // Attack: a forged token that differs from a known good one in its signature or payload only.
    test('a known token does not vouch for a variant of it', () => {
      const t = verifier.sign(claims());
      verifier.verify(t);
      const [h, p, sig] = t.split('.') as [string, string, string];
      const flipped = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
      expect(codeOf(() => verifier.verify(`${h}.${p}.${flipped}`))).toBe('401 INVALID_TOKEN');
      const forged = `${h}.${b64(claims({ roles: ['superuser'] }))}.${sig}`;
      expect(codeOf(() => verifier.verify(forged))).toBe('401 INVALID_TOKEN');
      expect(codeOf(() => verifier.verify(`${t} `))).toBe('401 INVALID_TOKEN');
    });

    test('the claims handed out cannot be changed for the next caller', () => {
      const t = verifier.sign(claims());
      const first = verifier.verify(t);
      expect(() => {
        (first as unknown as { sub: string }).sub = 'someone-else';
      }).toThrow(TypeError);
      expect(verifier.verify(t)).toEqual(first);
    });

    test('a token with nbf is verified in full each time (not kept)', () => {
      let now = NOW;
      const v = createTokenVerifier({ jwtSecret: SECRET, now: () => now });
      const t = v.sign({ ...claims(), nbf: NOW / 1000 } as never);
      expect(codeOf(() => v.verify(t))).toBe('no error');
      now = NOW - 10_000; // a clock set back: jsonwebtoken's nbf check refuses it
      expect(codeOf(() => v.verify(t))).toBe('401 INVALID_TOKEN');
    });
  });

  test('garbage is INVALID_TOKEN', () => {
    for (const t of ['', 'abc', 'a.b.c', '....']) {
      expect(codeOf(() => verifier.verify(t))).toBe('401 INVALID_TOKEN');
    }
  });

  test('a token missing required claims is INVALID_TOKEN', () => {
    const { roles: _roles, ...noRoles } = claims();
    expect(codeOf(() => verifier.verify(verifier.sign(noRoles as never)))).toBe(
      '401 INVALID_TOKEN',
    );
  });
});

describe('authContextFromClaims', () => {
  test('takes userId from sub and permissions from the claim, else empty', () => {
    const c = { ...claims(), aud: 'svc-api', iss: 'svc' };
    expect(authContextFromClaims(c)).toEqual({
      userId: c.sub,
      roles: ['editor'],
      permissions: [],
      isAnonymous: false,
      aal: 'aal1',
      jwtClaims: { sub: c.sub, email: c.email, aud: 'svc-api', iss: 'svc' },
    });
    expect(authContextFromClaims({ ...c, permissions: ['posts:write'] }).permissions).toEqual([
      'posts:write',
    ]);
  });

  test('isAnonymous is the is_anonymous claim when exactly true, else false', () => {
    const c = { ...claims(), aud: 'svc-api', iss: 'svc' };
    expect(authContextFromClaims({ ...c, is_anonymous: true }).isAnonymous).toBe(true);
    expect(authContextFromClaims({ ...c, is_anonymous: false }).isAnonymous).toBe(false);
    for (const odd of ['true', 1, null]) {
      expect(authContextFromClaims({ ...c, is_anonymous: odd as never }).isAnonymous).toBe(false);
    }
  });

  test('aal is the aal claim when exactly "aal2", else aal1 (tokens issued before it: aal1)', () => {
    const c = { ...claims(), aud: 'svc-api', iss: 'svc' };
    expect(authContextFromClaims({ ...c, aal: 'aal2' }).aal).toBe('aal2');
    expect(authContextFromClaims({ ...c, aal: 'aal1' }).aal).toBe('aal1');
    for (const odd of [undefined, 'AAL2', 'aal3', 2, true]) {
      expect(authContextFromClaims({ ...c, aal: odd as never }).aal).toBe('aal1');
    }
  });

  // Attack: a one-factor session edits its token's payload to claim aal2 and keeps the
  // signature; only verified claims are read (and the operations read the session record).
  test('aal2 written into a signed aal1 payload is INVALID_TOKEN', () => {
    const [h, , s] = verifier.sign({ ...claims(), aal: 'aal1' }).split('.');
    const forged = `${h}.${b64({ ...claims(), aal: 'aal2', aud: 'svc-api', iss: 'svc' })}.${s}`;
    expect(codeOf(() => verifier.verify(forged))).toBe('401 INVALID_TOKEN');
  });

  // Attack: a member edits its token's payload to pass for a guest (or the reverse) and keeps
  // the signature; the flag is read only from verified claims.
  test('is_anonymous added to a signed payload is INVALID_TOKEN', () => {
    const [h, , s] = verifier.sign(claims()).split('.');
    const forged = `${h}.${b64({ ...claims(), is_anonymous: true, aud: 'svc-api', iss: 'svc' })}.${s}`;
    expect(codeOf(() => verifier.verify(forged))).toBe('401 INVALID_TOKEN');
    const signed = verifier.sign({ ...claims(), is_anonymous: true });
    expect(authContextFromClaims(verifier.verify(signed)).isAnonymous).toBe(true);
  });
});
