/**
 * Issue 12: every way of signing in honours the MFA challenge. A user with confirmed TOTP signs
 * in by password, magic link, magic code, OAuth and passkey (with and without user
 * verification); each single-factor sign-in answers the challenge, never a session, and the
 * challenge completes with a TOTP code. A user-verified passkey is two factors by itself.
 * Each feature has its own suite; this one is where they meet.
 */
import {
  type Grant,
  SCRIPTED_CLIENT,
  scriptedProvider,
} from '../oauth/__tests__/scripted-provider';
import { oidc } from '../oauth/providers';
import type { Auth, AuthEvent, MfaChallenge, SignInResult } from '../types';
import { SoftAuthenticator } from '../webauthn/soft-authenticator';
import { T0, session, useCoreHarness } from '../__tests__/harness';
import { base32Decode, totp } from './totp';

const h = useCoreHarness();
const idp = scriptedProvider();
beforeAll(() => idp.listen());
afterAll(() => new Promise<void>((resolve) => idp.server.close(() => resolve())));
afterEach(() => idp.reset());

const PASSWORD = 'correct horse battery staple';
const APP = 'https://app.example.com/done';
const CALLBACK = 'https://api.example.com/auth/oauth/idp/callback';
const ORIGIN = 'https://app.example.test';
const INFO = { ip: '192.0.2.7' };

function challengeOf(result: SignInResult): MfaChallenge {
  if (!('mfaRequired' in result)) throw new Error('expected an MFA challenge, got a session');
  return result;
}

async function setup() {
  const made = await h.make({
    webauthn: { origin: ORIGIN, rpId: 'example.test', rpName: 'svc tests' },
    oauth: {
      providers: { idp: oidc({ issuer: idp.issuer, ...SCRIPTED_CLIENT }) },
      redirectUris: [APP],
    },
  });
  const { auth, clock, events } = made;
  /** Confirms TOTP for the holder of `token`; returns a function giving the next code (a code is good once). */
  const confirmTotp = async (token: string) => {
    const key = base32Decode((await auth.mfa.enrollTotp(token)).secret) as Buffer;
    await auth.mfa.confirmTotp(token, totp(key, clock()));
    return () => {
      clock.advance(30);
      return totp(key, clock());
    };
  };
  const oauthSignIn = async (g: Grant = {}) => {
    const { url } = await auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK });
    const { state, code } = idp.grant(url, clock(), g);
    const back = await auth.oauth.callback('idp', { state, code });
    const appCode = new URL(back.location).searchParams.get('code') as string;
    return auth.oauth.token({ code: appCode }, INFO);
  };
  return { auth, clock, events, confirmTotp, oauthSignIn };
}

const latest = async (auth: Auth, events: AuthEvent[], field: 'magicLinkToken' | 'magicCode') => {
  await auth.settle();
  return events.filter((e) => e[field]).at(-1)?.[field] as string;
};

/** The challenge completes with a TOTP code into a session of `userId`. */
async function completes(auth: Auth, challenge: MfaChallenge, code: string, userId: string) {
  expect(challenge).toMatchObject({ mfaRequired: true, methods: ['totp'] });
  const result = await auth.mfa.totpLogin(challenge.challengeToken, code, INFO);
  expect(result.user.id).toBe(userId);
  await expect(auth.verifyToken(result.token)).resolves.toMatchObject({ userId });
}

test('password, magic link, magic code: the challenge, then a session through TOTP', async () => {
  const { auth, events, confirmTotp } = await setup();
  const reg = await auth.register({ email: 'ada@example.com', password: PASSWORD });
  const next = await confirmTotp(reg.token);
  const before = events.filter((e) => e.eventType === 'IdentityAuthenticated').length;

  const byPassword = challengeOf(
    await auth.login({ email: 'ada@example.com', password: PASSWORD }, INFO),
  );
  await completes(auth, byPassword, next(), reg.user.id);

  await auth.requestMagicLink('ada@example.com', INFO);
  const link = await latest(auth, events, 'magicLinkToken');
  const byLink = challengeOf(await auth.consumeMagicLink(link, INFO));
  // The link is spent although a challenge, not a session, was the answer.
  await expect(auth.consumeMagicLink(link, INFO)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  await completes(auth, byLink, next(), reg.user.id);

  await auth.requestMagicCode('ada@example.com', INFO);
  const code = await latest(auth, events, 'magicCode');
  const byCode = challengeOf(await auth.verifyMagicCode('ada@example.com', code, INFO));
  await completes(auth, byCode, next(), reg.user.id);

  // Only the completed challenges issued sessions: one IdentityAuthenticated each.
  await auth.settle();
  expect(events.filter((e) => e.eventType === 'IdentityAuthenticated').length - before).toBe(3);
});

test('OAuth: the second sign-in of a user who then confirmed TOTP answers the challenge', async () => {
  const { auth, confirmTotp, oauthSignIn } = await setup();
  const first = await session(oauthSignIn());
  const next = await confirmTotp(first.token);
  const again = challengeOf(await oauthSignIn());
  await completes(auth, again, next(), first.user.id);
});

test('passkeys: user-verified is two factors (a session); without UV the challenge is owed', async () => {
  const { auth, confirmTotp } = await setup();
  const reg = await auth.register({ email: 'grace@example.test', password: PASSWORD });
  const authenticator = new SoftAuthenticator();
  const begin = await auth.webauthn.registerBegin(reg.token);
  const made = authenticator.create(begin.options, { origin: ORIGIN, now: T0 });
  await auth.webauthn.registerFinish(reg.token, {
    challengeId: begin.challengeId,
    credentialId: made.credentialId,
    clientDataJSON: made.clientDataJSON,
    attestationObject: made.attestationObject,
    name: 'Laptop',
  });
  const next = await confirmTotp(reg.token);
  const passkey = async (uv: boolean) => {
    const start = await auth.webauthn.loginBegin({ email: 'grace@example.test' }, INFO);
    const assertion = authenticator.get(start.options, { origin: ORIGIN, uv });
    return auth.webauthn.loginFinish({ challengeId: start.challengeId, ...assertion }, INFO);
  };
  const verified = await session(passkey(true));
  expect(verified.user.id).toBe(reg.user.id);
  await completes(auth, challengeOf(await passkey(false)), next(), reg.user.id);
});
