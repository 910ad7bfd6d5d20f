/**
 * Issue 26, point 3: pre-account takeover. The attack: an attacker registers the victim's address
 * with a password of their own (with `requireEmailVerification`, login is refused, but the
 * registration answered a session), and uses that session to add a passkey. When the owner later
 * signs in by a magic link, a magic code or an OAuth provider vouching for the address, the
 * address is proven: the attacker's password, passkey, linked provider account, sessions, refresh
 * tokens and anything else in flight must die, and the owner's new session must live (the
 * pre-account rule of docs/http.md, "Auth routes"). An address that was already verified proves nothing new: nothing is
 * cleared. Operations over the store on the engine SVC_TEST_DB names; the provider and the
 * passkey are real (a scripted OpenID provider on 127.0.0.1, a software authenticator).
 */
import {
  type Grant,
  SCRIPTED_CLIENT,
  scriptedProvider,
} from '../oauth/__tests__/scripted-provider';
import { oidc } from '../oauth/providers';
import type { Auth, AuthEvent, AuthResult } from '../types';
import { SoftAuthenticator } from '../webauthn/soft-authenticator';
import { T0, codeOf, session, tokenOf, useCoreHarness } from '../__tests__/harness';
import { base32Decode, totp } from '../mfa/totp';

const h = useCoreHarness();
const idp = scriptedProvider();
beforeAll(() => idp.listen());
afterAll(() => new Promise<void>((resolve) => idp.server.close(() => resolve())));
afterEach(() => idp.reset());

const VICTIM = 'victim@example.test';
const ATTACKER_PASSWORD = 'the attacker chose this';
const OWNER_PASSWORD = 'the owner chose this one';
const APP = 'https://app.example.com/done';
const CALLBACK = 'https://api.example.com/auth/oauth/idp/callback';
const ORIGIN = 'https://app.example.test';
const INFO = { ip: '192.0.2.7' };

async function setup(requireEmailVerification = true) {
  const made = await h.make({
    requireEmailVerification,
    webauthn: { origin: ORIGIN, rpId: 'example.test', rpName: 'svc tests' },
    oauth: {
      providers: { idp: oidc({ issuer: idp.issuer, ...SCRIPTED_CLIENT }) },
      redirectUris: [APP],
    },
  });
  const { auth, clock, events } = made;
  /** The provider's sign-in of `sub`, claiming `email` with `email_verified: verified`. */
  const oauthCallback = async (sub: string, verified: boolean, email = VICTIM) => {
    const g: Grant = {
      idToken: { sub },
      userinfo: { sub, email, email_verified: verified },
    };
    const { url } = await auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK });
    const { state, code } = idp.grant(url, clock(), g);
    return new URL((await auth.oauth.callback('idp', { state, code })).location);
  };
  const oauthSignIn = async (sub: string) => {
    const back = await oauthCallback(sub, true);
    const appCode = back.searchParams.get('code');
    if (!appCode) throw new Error(`the callback refused: ${back.searchParams.get('error')}`);
    return auth.oauth.token({ code: appCode }, INFO);
  };
  return { auth, clock, events, oauthCallback, oauthSignIn };
}

const latest = async (auth: Auth, events: AuthEvent[], field: 'magicLinkToken' | 'magicCode') => {
  await auth.settle();
  return events.filter((e) => e[field]).at(-1)?.[field] as string;
};

/** The owner's sign-in by each proof of the address. */
const proofs = {
  'magic link': async (auth: Auth, events: AuthEvent[]) => {
    await auth.requestMagicLink(VICTIM, INFO);
    return session(auth.consumeMagicLink(await latest(auth, events, 'magicLinkToken'), INFO));
  },
  'magic code': async (auth: Auth, events: AuthEvent[]) => {
    await auth.requestMagicCode(VICTIM, INFO);
    return session(auth.verifyMagicCode(VICTIM, await latest(auth, events, 'magicCode'), INFO));
  },
  OAuth: async (
    _auth: Auth,
    _events: AuthEvent[],
    oauthSignIn: (sub: string) => Promise<unknown>,
  ) => session(oauthSignIn('owner-at-idp') as Promise<AuthResult>),
} as const;

/** A passkey registered with `token`'s session; signs in with it. */
async function addPasskey(auth: Auth, token: string, email: string) {
  const authenticator = new SoftAuthenticator();
  const begin = await auth.webauthn.registerBegin(token);
  const made = authenticator.create(begin.options, { origin: ORIGIN, now: T0 });
  await auth.webauthn.registerFinish(token, {
    challengeId: begin.challengeId,
    credentialId: made.credentialId,
    clientDataJSON: made.clientDataJSON,
    attestationObject: made.attestationObject,
    name: 'attacker key',
  });
  return async () => {
    const start = await auth.webauthn.loginBegin({ email }, INFO);
    const assertion = authenticator.get(start.options, { origin: ORIGIN, uv: true });
    return auth.webauthn.loginFinish({ challengeId: start.challengeId, ...assertion }, INFO);
  };
}

const emailVerified = (events: AuthEvent[]) =>
  events.filter((e) => e.eventType === 'EmailVerified');

describe('issue 26: a sign-in that proves an unverified address ends the pre-account', () => {
  for (const [name, prove] of Object.entries(proofs))
    test(`by ${name}: the attacker's password, passkey, session and refresh token die; the owner's session lives`, async () => {
      const { auth, events, oauthSignIn } = await setup();
      const attacker = await auth.register({ email: VICTIM, password: ATTACKER_PASSWORD }, INFO);
      expect(await codeOf(auth.login({ email: VICTIM, password: ATTACKER_PASSWORD }, INFO))).toBe(
        'EMAIL_NOT_VERIFIED',
      );
      const attackerPasskey = await addPasskey(auth, attacker.token, VICTIM);

      const owner = await prove(auth, events, oauthSignIn);
      expect(owner.user).toMatchObject({ id: attacker.user.id, emailVerified: true });
      await auth.settle();
      expect(emailVerified(events)).toEqual([
        expect.objectContaining({ userId: attacker.user.id, email: VICTIM }),
      ]);

      // The attacker: session, refresh token, password and passkey all refused.
      expect(await codeOf(auth.verifyToken(attacker.token))).toBe('SESSION_EXPIRED');
      expect(await codeOf(auth.refresh(attacker.refreshToken, INFO))).toBe('INVALID_REFRESH_TOKEN');
      expect(await codeOf(auth.login({ email: VICTIM, password: ATTACKER_PASSWORD }, INFO))).toBe(
        'INVALID_CREDENTIALS',
      );
      expect(await codeOf(attackerPasskey())).not.toBe('(resolved)');

      // The owner: the new session and its refresh work; a password comes through reset.
      await expect(auth.verifyToken(owner.token)).resolves.toMatchObject({
        userId: attacker.user.id,
      });
      expect(await auth.webauthn.listCredentials(owner.token)).toEqual({ credentials: [] });
      const refreshed = await auth.refresh(owner.refreshToken, INFO);
      await auth.requestReset(VICTIM, INFO);
      await auth.settle();
      await auth.confirmReset(
        tokenOf(events, 'PasswordResetRequested', 'resetToken'),
        OWNER_PASSWORD,
      );
      await session(auth.login({ email: VICTIM, password: OWNER_PASSWORD }, INFO));
      // The reset ended every session, the owner's refreshed one too: that is reset's own rule.
      expect(await codeOf(auth.verifyToken(refreshed.token))).toBe('SESSION_EXPIRED');
    });

  test('a provider account linked without the provider vouching for the address is dropped by the proof', async () => {
    const { auth, events, oauthCallback } = await setup();
    // The attacker's provider account claims the victim's address, unverified: an account is
    // made for it, which cannot sign in while unverified.
    const refused = await oauthCallback('attacker-at-idp', false);
    expect(refused.searchParams.get('error')).toBe('EMAIL_NOT_VERIFIED');
    const user = await auth.findUser(VICTIM);
    if (!user) throw new Error('the provider sign-in made no account');
    expect((await auth.oauth.identities(VICTIM)).map((i) => i.subject)).toEqual([
      'attacker-at-idp',
    ]);

    const owner = await proofs['magic link'](auth, events);
    expect(owner.user).toMatchObject({ id: user.id, emailVerified: true });
    expect(await auth.oauth.identities(VICTIM)).toEqual([]);
    // Signing in with that provider account again finds the address taken, unvouched: refused.
    expect((await oauthCallback('attacker-at-idp', false)).searchParams.get('error')).toBe(
      'USER_ALREADY_EXISTS',
    );
  });

  test('an MFA challenge the attacker opened before the proof dies with it', async () => {
    // Without requireEmailVerification the attacker can log in, enroll TOTP and hold a challenge.
    const { auth, clock, events } = await setup(false);
    const attacker = await auth.register({ email: VICTIM, password: ATTACKER_PASSWORD }, INFO);
    const key = base32Decode((await auth.mfa.enrollTotp(attacker.token)).secret) as Buffer;
    await auth.mfa.confirmTotp(attacker.token, totp(key, clock()), INFO);
    const open = await auth.login({ email: VICTIM, password: ATTACKER_PASSWORD }, INFO);
    if (!('mfaRequired' in open)) throw new Error('expected an MFA challenge');

    await auth.requestMagicLink(VICTIM, INFO);
    // The second factor is kept (the address alone must not get past it): the owner's link
    // answers a challenge too.
    const ownerChallenge = await auth.consumeMagicLink(
      await latest(auth, events, 'magicLinkToken'),
      INFO,
    );
    expect(ownerChallenge).toMatchObject({ mfaRequired: true });
    clock.advance(30);
    expect(await codeOf(auth.mfa.totpLogin(open.challengeToken, totp(key, clock()), INFO))).toBe(
      'INVALID_TOKEN',
    );
    expect(await codeOf(auth.verifyToken(attacker.token))).toBe('SESSION_EXPIRED');
  });
});

describe('issue 26: an address already verified proves nothing new', () => {
  for (const [name, prove] of Object.entries(proofs))
    test(`by ${name}: a user verified by the verification link keeps password, passkey and sessions`, async () => {
      const { auth, events, oauthSignIn } = await setup();
      const first = await auth.register({ email: VICTIM, password: OWNER_PASSWORD }, INFO);
      await auth.settle();
      await auth.verifyEmail(tokenOf(events, 'EmailVerificationRequested', 'verificationToken'));
      const passkey = await addPasskey(auth, first.token, VICTIM);
      const other = await session(auth.login({ email: VICTIM, password: OWNER_PASSWORD }, INFO));
      await auth.settle();
      const verifiedEvents = emailVerified(events).length;

      const proved = await prove(auth, events, oauthSignIn);
      expect(proved.user.id).toBe(first.user.id);
      await auth.settle();
      expect(emailVerified(events)).toHaveLength(verifiedEvents);
      for (const t of [first.token, other.token, proved.token])
        await expect(auth.verifyToken(t)).resolves.toMatchObject({ userId: first.user.id });
      await session(auth.login({ email: VICTIM, password: OWNER_PASSWORD }, INFO));
      await session(passkey());
      await auth.refresh(other.refreshToken, INFO);
    });

  test('a new account made by an implicit-signup link is verified from the start', async () => {
    const { auth, events } = await h.make({ allowImplicitSignup: true });
    await auth.requestMagicLink(VICTIM, INFO);
    const made = await session(
      auth.consumeMagicLink(await latest(auth, events, 'magicLinkToken'), INFO),
    );
    expect(made.user.emailVerified).toBe(true);
    await auth.requestMagicCode(VICTIM, INFO);
    await session(auth.verifyMagicCode(VICTIM, await latest(auth, events, 'magicCode'), INFO));
    await expect(auth.verifyToken(made.token)).resolves.toMatchObject({ userId: made.user.id });
  });
});
