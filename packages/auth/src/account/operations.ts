/**
 * Accounts: registration, login and the profile. Every field goes through this folder's
 * validators (`index.ts`), whether it came over HTTP or through a plain function.
 *
 * - `register` returns a session even with `requireEmailVerification` (the contract's return
 *   type); `login` refuses an unverified user with EMAIL_NOT_VERIFIED.
 * - Failed logins are logged (warn, `login failed`) with the client IP, the reason and the user
 *   id when the account exists; never the email, username or password.
 * - Events: IdentityCreated after registration, IdentityAuthenticated after a login (not after a
 *   registration).
 */
import { commonError } from '@svc/core';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { requirePassword } from '../password';
import { hashNewPassword } from '../password/operations';
import { checkAccessWithUser, issueSession } from '../session/operations';
import { completeSignIn } from '../session/sign-in';
import type { UserRecord } from '../store/types';
import type {
  AuthResult,
  LoginInput,
  RegisterInput,
  RequestInfo,
  SignInResult,
  User,
} from '../types';
import { issueVerification } from '../verification/operations';
import {
  checkMetadata,
  checkUsername,
  loginIdentifier,
  normalizeEmail,
  toPublicUser,
} from './index';

/** `auth.register`: a new account and its first session. */
export async function register(
  ctx: OperationContext,
  input: RegisterInput,
  info?: RequestInfo,
): Promise<AuthResult> {
  const { config, store } = ctx;
  if (!config.allowRegistration)
    throw authError('REGISTRATION_DISABLED', 'registration is disabled');
  if (typeof input !== 'object' || input === null)
    throw commonError('VALIDATION_ERROR', 'a registration body is required');
  const email = normalizeEmail(input.email);
  const username =
    input.username === undefined || input.username === null ? null : checkUsername(input.username);
  const metadata =
    input.metadata === undefined || input.metadata === null
      ? {}
      : checkMetadata(input.metadata, config.maxMetadataBytes);
  const passwordHash = await hashNewPassword(ctx, input.password);
  const user = await store.createUser({ email, username, passwordHash, metadata });
  ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
  if (config.requireEmailVerification) await issueVerification(ctx, user);
  return issueSession(ctx, user, info);
}

/** One line per failed login: who asked from where, never the identifier or the password. */
function loginFailed(
  ctx: OperationContext,
  reason: string,
  info: RequestInfo | undefined,
  user: UserRecord | null,
): void {
  ctx.logger?.warn(
    { reason, ip: info?.ip ?? null, ...(user ? { userId: user.id } : {}) },
    'login failed',
  );
}

/** `auth.login`: by email or username; over the `login` rate limit RATE_LIMITED before any password check. */
export async function login(
  ctx: OperationContext,
  input: LoginInput,
  info?: RequestInfo,
): Promise<SignInResult> {
  const { store, passwords } = ctx;
  if (typeof input !== 'object' || input === null)
    throw commonError('VALIDATION_ERROR', 'a login body is required');
  const { password } = input as { password?: unknown };
  requirePassword(password);
  const named = loginIdentifier(input as { email?: unknown; username?: unknown });
  // Any spelling of the address finds the account; one that cannot be an address finds none.
  let user: UserRecord | null;
  if (named.by === 'email')
    user = named.email === null ? null : await store.findUserByLogin({ email: named.email });
  else user = await store.findUserByLogin({ username: named.username });
  // Before the bcrypt compare: a refused attempt costs no hashing. The per-account key is the
  // account's email when the login names one (by email or username), else the name given.
  await ctx.limiter.check('login', { email: user?.email ?? named.given, ip: info?.ip });
  // An unknown login costs one bcrypt compare too (against a dummy hash of the same cost).
  const match = user
    ? await passwords.verify(password, user.passwordHash)
    : await passwords.burn(password);
  if (!user || !match) {
    loginFailed(ctx, 'INVALID_CREDENTIALS', info, user);
    throw authError('INVALID_CREDENTIALS', 'invalid email, username or password');
  }
  if (!user.active) {
    loginFailed(ctx, 'USER_INACTIVE', info, user);
    throw authError('USER_INACTIVE', 'the account is deactivated');
  }
  if (ctx.config.requireEmailVerification && !user.emailVerified) {
    loginFailed(ctx, 'EMAIL_NOT_VERIFIED', info, user);
    throw authError('EMAIL_NOT_VERIFIED', 'the email address is not verified yet');
  }
  // A hash of the raw text, made before passwords were normalised: store the NFKC form's hash
  // (only if no one changed the password meanwhile). The password is the same, so sessions stay.
  if (match === 'legacy' && user.passwordHash)
    await store.rehashPassword(user.id, user.passwordHash, await passwords.hash(password));
  return completeSignIn(ctx, user, info, 'password');
}

/** `auth.profile`: the user of a live session. */
export async function profile(ctx: OperationContext, accessToken: string): Promise<User> {
  // The session and the whole user in one read: the same verdict as checkAccess.
  const found = await checkAccessWithUser(ctx, accessToken);
  return toPublicUser(found.user);
}
