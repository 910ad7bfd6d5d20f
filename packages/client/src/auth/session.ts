/**
 * client/auth/session: the session a client holds (what the storage keeps, as JSON) and how an
 * Auth result of the server (docs/http.md, "Auth routes") becomes one. The access token's expiry
 * is read from its `exp` claim; its assurance level and guest flag from `aal` and `is_anonymous`.
 */
import { ProtocolError } from '../errors';
import { jwtClaims } from './base64url';

/** The signed-in user (`GET /auth/profile`). Dates are ISO 8601 text. */
export interface AuthUser {
  readonly id: string;
  readonly email: string;
  readonly username?: string;
  readonly emailVerified: boolean;
  readonly active: boolean;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Session {
  /** The access token sent with every request (a JWT). */
  readonly accessToken: string;
  /** Exchanged at `/auth/refresh` for the next session; spent by that exchange. */
  readonly refreshToken: string;
  /** When the access token expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The server's id of the session. */
  readonly id: string;
  readonly user: AuthUser;
  /** `aal2` after a completed MFA challenge or a user-verified passkey. */
  readonly aal: 'aal1' | 'aal2';
  /** A guest (`signInAnonymously`) until `upgrade`. */
  readonly isAnonymous: boolean;
}

/** The second factor a sign-in waits for: answer it with `mfa.verifyTotp` or `mfa.verifyRecoveryCode`. */
export interface MfaChallenge {
  readonly challengeToken: string;
  /** `totp`, then `recovery_code` when the user has unused recovery codes. */
  readonly methods: readonly ('totp' | 'recovery_code')[];
  /** ISO 8601: the challenge's end (5 minutes). */
  readonly expiresAt: string;
}

/** A sign-in's outcome: a session, or the MFA challenge it waits behind. */
export type SignInResult =
  | { readonly session: Session; readonly mfa: null }
  | { readonly session: null; readonly mfa: MfaChallenge };

interface AuthResultBody {
  token?: unknown;
  refreshToken?: unknown;
  session?: { id?: unknown };
  user?: { id?: unknown };
  mfaRequired?: unknown;
  challengeToken?: unknown;
  methods?: unknown;
  expiresAt?: unknown;
}

/** The session of an Auth result; a ProtocolError when the body is not one. */
export function sessionOf(body: unknown): Session {
  const b = (body ?? {}) as AuthResultBody;
  if (
    typeof b.token !== 'string' ||
    typeof b.refreshToken !== 'string' ||
    typeof b.user?.id !== 'string'
  )
    throw new ProtocolError('the server answered a sign-in without an Auth result');
  const claims = jwtClaims(b.token) ?? {};
  return {
    accessToken: b.token,
    refreshToken: b.refreshToken,
    // Without `exp` the token is taken to live an hour (the server's default).
    expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : Date.now() + 3_600_000,
    id: typeof b.session?.id === 'string' ? b.session.id : '',
    user: b.user as AuthUser,
    aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    isAnonymous: claims.is_anonymous === true,
  };
}

/** A sign-in answer: an Auth result, or an MFA challenge. */
export function signInResultOf(body: unknown): SignInResult {
  const b = (body ?? {}) as AuthResultBody;
  if (b.mfaRequired === true) {
    if (typeof b.challengeToken !== 'string' || !Array.isArray(b.methods))
      throw new ProtocolError('the server answered an MFA challenge without its token');
    return {
      session: null,
      mfa: {
        challengeToken: b.challengeToken,
        methods: b.methods as MfaChallenge['methods'],
        expiresAt: String(b.expiresAt),
      },
    };
  }
  return { session: sessionOf(body), mfa: null };
}

/** The stored text of a session. */
export const serializeSession = (session: Session): string => JSON.stringify(session);

/** A stored session, or null when the text is absent or not one (a foreign or older value). */
export function parseSession(text: string | null | undefined): Session | null {
  if (!text) return null;
  try {
    const s = JSON.parse(text) as Partial<Session> | null;
    if (
      s &&
      typeof s.accessToken === 'string' &&
      typeof s.refreshToken === 'string' &&
      typeof s.expiresAt === 'number' &&
      typeof s.user?.id === 'string'
    )
      return s as Session;
  } catch {}
  return null;
}
