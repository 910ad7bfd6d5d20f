/**
 * `createAuth(config, options)`: the @svc/auth instance (accounts, passwords, sessions, tokens,
 * one-time tokens, roles, events) over a `Database` (PostgreSQL or PGlite, schema `svc_auth`) or
 * any `AuthStore`. Every operation is a plain async function; `handler` is the same operations
 * behind the Fetch standard.
 *
 * Decisions worth knowing:
 * - Sessions: the access token's `jti` names a session row. `verifyToken` checks the JWT, then the
 *   session (not revoked, `lastActivityAt + sessionTimeout > now`) and the user (active) in one
 *   indexed query; it moves `lastActivityAt` forward at most once per min(60 s, sessionTimeout/10).
 * - Refresh: one conditional UPDATE revokes the old session and the new one is inserted in the same
 *   transaction, so of concurrent refreshes with one token exactly one succeeds. A refresh token
 *   works while it lives (`refreshTokenExpiry`) and its session is live: a session idle past
 *   `sessionTimeout` answers SESSION_EXPIRED (spec: a timed-out session answers 401
 *   SESSION_EXPIRED to any request using it), a deactivated user USER_INACTIVE. Deactivation
 *   revokes every session of the user.
 * - Identifiers are normalised where they enter (`account/`): emails NFKC + lower case within
 *   RFC 5321's limits, usernames NFKC and unique whatever their case, passwords hashed in NFKC
 *   (a hash of the raw text made before that still logs in, and is rehashed).
 * - Failed logins are logged (warn, `login failed`) with the client IP, the reason and the user
 *   id when the account exists; never the email, username or password.
 * - Roles are copied into the access token when it is issued; a role assigned later shows after
 *   the next login or refresh. `roles.assign` to a role that does not exist fails with
 *   VALIDATION_ERROR (it does not create it); creating a role that exists is INVALID_OPERATION.
 * - `register` returns a session even with `requireEmailVerification` (the contract's return type);
 *   `login` refuses an unverified user with EMAIL_NOT_VERIFIED.
 * - Events (`IdentityCreated`, `IdentityAuthenticated`, ...) are emitted after the write that
 *   causes them; `IdentityAuthenticated` is emitted for logins and refreshes, not registrations.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { commonError } from '@svc/core';
import { createTokenVerifier, authContextFromClaims, JWT_SECRET_MIN_LENGTH, type AccessTokenClaims, type AuthContext } from './token/verify';
import { authError } from './errors';
import { AUTH_CONFIG_DEFAULTS } from './config';
import { createEventBus, type EventBus } from './events';
import { createHandler } from './http/handler';
import { installEmailListener } from './email';
import { installWebhooks } from './webhooks';
import { checkPassword, createPasswordHasher, type PasswordPolicy } from './password';
import { isTokenShape, randomToken, sha256Hex } from './session';
import { checkMetadata, checkUsername, isUuid, normalizeEmail, toPublicUser } from './account';
import { nfkc } from './account/text';
import { SUPERUSER_ROLE, checkRoleDescription, checkRoleName } from './roles';
import { createPostgresStore } from './store/postgres';
import { createRateLimiter, resolveRateLimits, type ResolvedRateLimits } from './rate-limit';
import type { AuthStore, UserRecord } from './store/types';
import type {
  Auth,
  AuthAdmin,
  AuthAdminConfig,
  AuthConfig,
  AuthResult,
  CreateAuthOptions,
  LoginInput,
  RegisterInput,
  RequestInfo,
  User,
} from './types';

/** Reset tokens die after one hour (spec "States and transitions"). */
export const RESET_TOKEN_TTL_SECONDS = 3600;
/** Verification links live a day. */
export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 3600;
/** `listUsers` pages: 100 users unless asked, at most 1000. */
export const DEFAULT_USER_PAGE = 100;
export const MAX_USER_PAGE = 1000;
/** `lastActivityAt` is written at most this often (and at most every sessionTimeout/10). */
export const SESSION_TOUCH_INTERVAL_SECONDS = 60;

export type ResolvedAuthConfig = Auth['config'] &
  Required<
    Pick<
      AuthConfig,
      | 'allowRegistration'
      | 'requireEmailVerification'
      | 'allowImplicitSignup'
      | 'passwordMinLength'
      | 'passwordRequireNumbers'
      | 'passwordRequireSpecial'
      | 'passwordRequireUppercase'
      | 'cookie'
      | 'maxMetadataBytes'
    >
  > & { readonly rateLimits: ResolvedRateLimits };

const INTEGER_KEYS = {
  tokenExpiry: { min: 1, max: 10 * 365 * 24 * 3600 },
  refreshTokenExpiry: { min: 1, max: 10 * 365 * 24 * 3600 },
  sessionTimeout: { min: 1, max: 10 * 365 * 24 * 3600 },
  bcryptRounds: { min: 4, max: 31 },
  passwordMinLength: { min: 1, max: 72 },
  maxMetadataBytes: { min: 2, max: 1024 * 1024 },
} as const;
const BOOLEAN_KEYS = [
  'allowRegistration',
  'requireEmailVerification',
  'allowImplicitSignup',
  'passwordRequireNumbers',
  'passwordRequireSpecial',
  'passwordRequireUppercase',
  'cookie',
] as const;

/** Fills in the defaults and refuses wrong types with a TypeError naming the key. */
export function resolveAuthConfig(config: AuthConfig): ResolvedAuthConfig {
  return resolveSettings(config, true);
}

/** `resolveAuthConfig`, where `createAuthAdmin` may leave `jwtSecret` out (a given one is still checked). */
function resolveSettings(config: AuthAdminConfig, secretRequired: boolean): ResolvedAuthConfig {
  if (typeof config !== 'object' || config === null) throw new TypeError('auth config must be an object');
  if (
    (secretRequired || config.jwtSecret !== undefined) &&
    (typeof config.jwtSecret !== 'string' || config.jwtSecret.length < JWT_SECRET_MIN_LENGTH)
  ) {
    throw new TypeError(`auth config: jwtSecret must be a string of at least ${JWT_SECRET_MIN_LENGTH} characters`);
  }
  const out: Record<string, unknown> = { ...AUTH_CONFIG_DEFAULTS };
  for (const [key, value] of Object.entries(config)) if (value !== undefined) out[key] = value;
  for (const key of ['jwtAudience', 'jwtIssuer'] as const) {
    if (typeof out[key] !== 'string' || (out[key] as string).length === 0) {
      throw new TypeError(`auth config: ${key} must be a non-empty string`);
    }
  }
  for (const [key, { min, max }] of Object.entries(INTEGER_KEYS)) {
    const v = out[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new TypeError(`auth config: ${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
    }
  }
  for (const key of BOOLEAN_KEYS) {
    if (typeof out[key] !== 'boolean') {
      throw new TypeError(`auth config: ${key} must be true or false (got ${JSON.stringify(out[key])})`);
    }
  }
  if (out.claims !== undefined && typeof out.claims !== 'function') {
    throw new TypeError('auth config: claims must be a function (user) => object');
  }
  out.rateLimits = resolveRateLimits(out.rateLimits);
  return Object.freeze(out) as unknown as ResolvedAuthConfig;
}

/** Options beyond the contract's, for tests and for hosts with their own storage. */
export interface CreateAuthInternals {
  /** Storage to use instead of the Postgres store over `options.database`. */
  readonly store?: AuthStore;
  /** Randomness (refresh, reset and verification tokens). @default crypto.randomBytes */
  readonly random?: (n: number) => Buffer;
}

export async function createAuth(
  config: AuthConfig,
  options: CreateAuthOptions,
  internals: CreateAuthInternals = {},
): Promise<Auth> {
  return (await assemble(resolveAuthConfig(config), options, internals, 'full')) as Auth;
}

const ADMIN_OPERATIONS = [
  'migrate',
  'setPassword',
  'revokeAllSessions',
  'setActive',
  'findUser',
  'listUsers',
  'createSuperuser',
  'roles',
  'on',
  'settle',
  'close',
] as const satisfies readonly (keyof AuthAdmin)[];

/**
 * The administrative operations alone (users, passwords, sessions, roles), for tools such as
 * `svc admin`: none of them signs or verifies a token, so `jwtSecret` may be left out. Webhooks
 * still receive the events these operations emit; no email listener is installed, as none of
 * them sends mail.
 *
 * @example
 * const admin = await createAuthAdmin({}, { database });
 * await admin.roles.create('editor', 'Edits posts');
 * await admin.close();
 */
export async function createAuthAdmin(
  config: AuthAdminConfig,
  options: CreateAuthOptions,
  internals: CreateAuthInternals = {},
): Promise<AuthAdmin> {
  const full = await assemble(resolveSettings(config, false), options, internals, 'admin');
  const admin = {} as Record<string, unknown>;
  for (const key of ADMIN_OPERATIONS) admin[key] = full[key];
  return Object.freeze(admin) as unknown as AuthAdmin;
}

async function assemble(
  cfg: ResolvedAuthConfig,
  options: CreateAuthOptions,
  internals: CreateAuthInternals,
  mode: 'full' | 'admin',
): Promise<Omit<Auth, 'handler'> & Partial<Pick<Auth, 'handler'>>> {
  if (!internals.store && (typeof options !== 'object' || !options?.database)) {
    throw new TypeError('createAuth: options.database is required');
  }
  const now = options.now ?? Date.now;
  const random = internals.random ?? randomBytes;
  const store = internals.store ?? createPostgresStore(options.database, { now });
  // Without a secret (createAuthAdmin) nothing may sign or verify: the admin surface has no
  // operation that does, and `tokensOrThrow` says so should one ever try.
  const tokens = typeof cfg.jwtSecret === 'string' ? createTokenVerifier({ jwtSecret: cfg.jwtSecret, jwtAudience: cfg.jwtAudience, jwtIssuer: cfg.jwtIssuer, now }) : undefined;
  const tokensOrThrow = () => {
    if (!tokens) throw new Error('@svc/auth: this instance was made without a jwtSecret and cannot sign or verify tokens');
    return tokens;
  };
  const passwords = createPasswordHasher(cfg.bcryptRounds);
  const policy: PasswordPolicy = {
    minLength: cfg.passwordMinLength,
    requireNumbers: cfg.passwordRequireNumbers,
    requireSpecial: cfg.passwordRequireSpecial,
    requireUppercase: cfg.passwordRequireUppercase,
  };
  const bus: EventBus = createEventBus({ ...(options.logger ? { logger: options.logger } : {}), now });
  const touchEveryMs = Math.min(SESSION_TOUCH_INTERVAL_SECONDS, cfg.sessionTimeout / 10) * 1000;
  const sessionTimeoutMs = cfg.sessionTimeout * 1000;

  const limiter = createRateLimiter({
    store,
    limits: cfg.rateLimits,
    now,
    ...(options.logger ? { logger: options.logger } : {}),
  });

  const uninstall = wireExtensions(bus, cfg, options, mode === 'full');

  // --- helpers --------------------------------------------------------------------------------

  /** A user named by id or by email in any spelling; null when there is none (or it cannot be an email). */
  const findByEmailOrId = async (emailOrId: string): Promise<UserRecord | null> => {
    if (isUuid(emailOrId)) return store.findUserById(emailOrId);
    const email = normalizedOrNull(normalizeEmail, emailOrId);
    return email === null ? null : store.findUserByEmail(email);
  };

  const userOrThrow = async (emailOrId: unknown): Promise<UserRecord> => {
    if (typeof emailOrId !== 'string' || emailOrId.length === 0) {
      throw commonError('VALIDATION_ERROR', 'a user email or id is required');
    }
    const user = await findByEmailOrId(emailOrId);
    if (!user) throw authError('USER_NOT_FOUND', 'no such user');
    return user;
  };

  /** One line per failed login: who asked from where, never the identifier or the password. */
  const loginFailed = (reason: string, info: RequestInfo | undefined, user: UserRecord | null) => {
    options.logger?.warn({ reason, ip: info?.ip ?? null, ...(user ? { userId: user.id } : {}) }, 'login failed');
  };

  /** Signs an access token and stores its session. */
  const issueSession = async (user: UserRecord, info: RequestInfo | undefined): Promise<AuthResult> => {
    const { jti, refreshToken, token } = await mintTokens(user);
    const session = await store.createSession({
      userId: user.id,
      accessJti: jti,
      refreshHash: sha256Hex(refreshToken),
      expiresAt: new Date(now() + cfg.refreshTokenExpiry * 1000),
      ip: info?.ip ?? null,
      userAgent: info?.userAgent ?? null,
    });
    return authResult(user, token, refreshToken, session);
  };

  const mintTokens = async (user: UserRecord) => {
    const roles = await store.userRoles(user.id);
    const extra = cfg.claims ? await cfg.claims(toPublicUser(user)) : {};
    const iat = Math.floor(now() / 1000);
    const jti = randomUUID();
    const claims: Omit<AccessTokenClaims, 'aud' | 'iss'> = {
      ...(extra as object),
      sub: user.id,
      email: user.email,
      ...(user.username ? { username: user.username } : {}),
      iat,
      exp: iat + cfg.tokenExpiry,
      jti,
      roles,
    };
    const token = tokensOrThrow().sign(claims);
    return { claims, jti, refreshToken: randomToken(random), token };
  };

  const authResult = (
    user: UserRecord,
    token: string,
    refreshToken: string,
    session: { id: string; userId: string; createdAt: Date; expiresAt: Date },
  ): AuthResult => ({
    token,
    refreshToken,
    session: {
      id: session.id,
      userId: session.userId,
      token,
      refreshToken,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
    },
    user: toPublicUser(user),
  });

  /** The JWT, then the session and user: the verified claims and the session id. */
  const checkAccess = async (accessToken: unknown) => {
    if (typeof accessToken !== 'string' || accessToken.length === 0) {
      throw authError('INVALID_TOKEN', 'an access token is required');
    }
    const claims = tokensOrThrow().verify(accessToken);
    const state = await store.sessionState(claims.jti);
    if (!state || state.userId !== claims.sub) throw authError('SESSION_EXPIRED', 'the session has ended');
    // Deactivation revokes the sessions too; the more useful answer comes first.
    if (!state.userActive) throw authError('USER_INACTIVE', 'the account is deactivated');
    const t = now();
    if (state.revoked || state.lastActivityAt.getTime() + sessionTimeoutMs <= t) {
      throw authError('SESSION_EXPIRED', 'the session has ended');
    }
    if (t - state.lastActivityAt.getTime() >= touchEveryMs) await store.touchSession(state.sessionId);
    return { claims, sessionId: state.sessionId };
  };

  const issueVerification = async (user: UserRecord) => {
    const token = randomToken(random);
    await store.issueVerificationToken(user.id, sha256Hex(token), new Date(now() + VERIFICATION_TOKEN_TTL_SECONDS * 1000));
    bus.emit({ eventType: 'EmailVerificationRequested', userId: user.id, email: user.email, verificationToken: token });
  };

  const hashNewPassword = async (password: unknown, field = 'password') => {
    checkPassword(password, policy, field);
    return passwords.hash(password);
  };

  // --- the instance ---------------------------------------------------------------------------

  const auth: Omit<Auth, 'handler'> = {
    config: cfg,
    migrate: () => store.migrate(),

    async register(input: RegisterInput, info?: RequestInfo) {
      if (!cfg.allowRegistration) throw authError('REGISTRATION_DISABLED', 'registration is disabled');
      if (typeof input !== 'object' || input === null) throw commonError('VALIDATION_ERROR', 'a registration body is required');
      const email = normalizeEmail(input.email);
      const username = input.username === undefined || input.username === null ? null : checkUsername(input.username);
      const metadata = input.metadata === undefined || input.metadata === null ? {} : checkMetadata(input.metadata, cfg.maxMetadataBytes);
      const passwordHash = await hashNewPassword(input.password);
      const user = await store.createUser({ email, username, passwordHash, metadata });
      bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
      if (cfg.requireEmailVerification) await issueVerification(user);
      return issueSession(user, info);
    },

    async login(input: LoginInput, info?: RequestInfo) {
      if (typeof input !== 'object' || input === null) throw commonError('VALIDATION_ERROR', 'a login body is required');
      const { password } = input as { password?: unknown };
      if (typeof password !== 'string' || password.length === 0) throw commonError('VALIDATION_ERROR', 'password is required');
      const raw = input as { email?: unknown; username?: unknown };
      let user: UserRecord | null;
      if (raw.email !== undefined && raw.email !== null) {
        if (typeof raw.email !== 'string' || raw.email.length === 0 || raw.email.length > 320) {
          throw commonError('VALIDATION_ERROR', 'email must be a string');
        }
        // Any spelling of the address finds the account; one that cannot be an address finds none.
        const email = normalizedOrNull(normalizeEmail, raw.email);
        user = email === null ? null : await store.findUserByLogin({ email });
      } else if (raw.username !== undefined && raw.username !== null) {
        if (typeof raw.username !== 'string' || raw.username.length === 0 || raw.username.length > 320) {
          throw commonError('VALIDATION_ERROR', 'username must be a string');
        }
        user = await store.findUserByLogin({ username: nfkc(raw.username, 'username') });
      } else {
        throw commonError('VALIDATION_ERROR', 'email or username is required');
      }
      // Before the bcrypt compare: a refused attempt costs no hashing. The per-account key is the
      // account's email when the login names one (by email or username), else the name given.
      await limiter.check('login', { email: user?.email ?? ((raw.email ?? raw.username) as string), ip: info?.ip });
      // An unknown login costs one bcrypt compare too (against a dummy hash of the same cost).
      const match = user ? await passwords.verify(password, user.passwordHash) : await passwords.burn(password);
      if (!user || !match) {
        loginFailed('INVALID_CREDENTIALS', info, user);
        throw authError('INVALID_CREDENTIALS', 'invalid email, username or password');
      }
      if (!user.active) {
        loginFailed('USER_INACTIVE', info, user);
        throw authError('USER_INACTIVE', 'the account is deactivated');
      }
      if (cfg.requireEmailVerification && !user.emailVerified) {
        loginFailed('EMAIL_NOT_VERIFIED', info, user);
        throw authError('EMAIL_NOT_VERIFIED', 'the email address is not verified yet');
      }
      // A hash of the raw text, made before passwords were normalised: store the NFKC form's hash
      // (only if no one changed the password meanwhile). The password is the same, so sessions stay.
      if (match === 'legacy' && user.passwordHash) await store.rehashPassword(user.id, user.passwordHash, await passwords.hash(password));
      const result = await issueSession(user, info);
      bus.emit({ eventType: 'IdentityAuthenticated', userId: user.id, email: user.email });
      return result;
    },

    async refresh(refreshToken: string, info?: RequestInfo) {
      if (!isTokenShape(refreshToken)) throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
      const hash = sha256Hex(refreshToken);
      // The session and user are read first, for the answer and the new token's claims; the
      // rotation itself (one conditional UPDATE with the same conditions) decides who wins.
      const state = await store.refreshState(hash);
      const t = now();
      if (!state || state.expiresAt.getTime() <= t) throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
      if (!state.userActive) throw authError('USER_INACTIVE', 'the account is deactivated');
      if (state.revoked) throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
      const activeSince = new Date(t - sessionTimeoutMs);
      if (state.lastActivityAt.getTime() <= activeSince.getTime()) throw authError('SESSION_EXPIRED', 'the session has ended');
      const current = await store.findUserById(state.userId);
      if (!current) throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
      const minted = await mintTokens(current);
      const rotated = await store.rotateSession(
        hash,
        {
          accessJti: minted.jti,
          refreshHash: sha256Hex(minted.refreshToken),
          expiresAt: new Date(now() + cfg.refreshTokenExpiry * 1000),
          ip: info?.ip ?? null,
          userAgent: info?.userAgent ?? null,
        },
        activeSince,
      );
      if (!rotated || rotated.next.userId !== current.id) {
        throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
      }
      bus.emit({ eventType: 'IdentityAuthenticated', userId: current.id, email: current.email });
      return authResult(current, minted.token, minted.refreshToken, rotated.next);
    },

    async logout(accessToken: string) {
      const { sessionId } = await checkAccess(accessToken);
      await store.revokeSession(sessionId);
    },

    async profile(accessToken: string) {
      const { claims } = await checkAccess(accessToken);
      const user = await store.findUserById(claims.sub);
      if (!user) throw authError('SESSION_EXPIRED', 'the session has ended');
      return toPublicUser(user);
    },

    async changePassword(accessToken: string, oldPassword: string, newPassword: string) {
      const { claims } = await checkAccess(accessToken);
      if (typeof oldPassword !== 'string' || oldPassword.length === 0) {
        throw commonError('VALIDATION_ERROR', 'oldPassword is required');
      }
      checkPassword(newPassword, policy, 'newPassword');
      const user = await store.findUserById(claims.sub);
      if (!user) throw authError('SESSION_EXPIRED', 'the session has ended');
      if (!(await passwords.verify(oldPassword, user.passwordHash))) {
        throw authError('INVALID_CREDENTIALS', 'the current password is wrong');
      }
      await store.replacePassword(user.id, await passwords.hash(newPassword));
    },

    async requestReset(email: string, info?: RequestInfo) {
      let normalized: string;
      try {
        normalized = normalizeEmail(email);
      } catch {
        return; // no enumeration, no error for a malformed address either
      }
      // Known and unknown emails are counted alike, so a 429 tells nothing about the account.
      await limiter.check('passwordReset', { email: normalized, ip: info?.ip });
      const user = await store.findUserByEmail(normalized);
      if (!user || !user.active) return;
      const token = randomToken(random);
      await store.issueResetToken(user.id, sha256Hex(token), new Date(now() + RESET_TOKEN_TTL_SECONDS * 1000));
      bus.emit({ eventType: 'PasswordResetRequested', userId: user.id, email: user.email, resetToken: token });
    },

    async confirmReset(resetToken: string, newPassword: string) {
      checkPassword(newPassword, policy, 'newPassword');
      if (!isTokenShape(resetToken)) throw authError('INVALID_TOKEN', 'the reset token is invalid, used or expired');
      const userId = await store.consumeResetToken(sha256Hex(resetToken));
      if (!userId) throw authError('INVALID_TOKEN', 'the reset token is invalid, used or expired');
      await store.replacePassword(userId, await passwords.hash(newPassword));
    },

    async verifyEmail(verificationToken: string) {
      if (!isTokenShape(verificationToken)) throw authError('INVALID_TOKEN', 'the verification token is invalid, used or expired');
      const userId = await store.consumeVerificationToken(sha256Hex(verificationToken));
      if (!userId) throw authError('INVALID_TOKEN', 'the verification token is invalid, used or expired');
      await store.markEmailVerified(userId);
      const user = await store.findUserById(userId);
      bus.emit({ eventType: 'EmailVerified', userId, ...(user ? { email: user.email } : {}) });
    },

    async resendVerification(email: string, info?: RequestInfo) {
      let normalized: string;
      try {
        normalized = normalizeEmail(email);
      } catch {
        return;
      }
      await limiter.check('verificationResend', { email: normalized, ip: info?.ip });
      const user = await store.findUserByEmail(normalized);
      if (!user || user.emailVerified) return;
      await issueVerification(user);
    },

    async verifyToken(accessToken: string): Promise<AuthContext> {
      return authContextFromClaims((await checkAccess(accessToken)).claims);
    },

    async setPassword(emailOrId: string, password: string) {
      if (typeof password !== 'string' || password.length === 0) throw commonError('VALIDATION_ERROR', 'password is required');
      checkPassword(password, policy);
      const user = await userOrThrow(emailOrId);
      await store.replacePassword(user.id, await passwords.hash(password));
    },

    async revokeAllSessions(emailOrId: string) {
      const user = await userOrThrow(emailOrId);
      return store.revokeUserSessions(user.id);
    },

    async setActive(emailOrId: string, active: boolean) {
      if (typeof active !== 'boolean') throw commonError('VALIDATION_ERROR', 'active must be true or false');
      const user = await userOrThrow(emailOrId);
      await store.setActive(user.id, active);
    },

    async findUser(emailOrId: string): Promise<User | null> {
      if (typeof emailOrId !== 'string' || emailOrId.length === 0) return null;
      const user = await findByEmailOrId(emailOrId);
      return user ? toPublicUser(user) : null;
    },

    async listUsers(page: { limit?: number; offset?: number } = {}) {
      if (typeof page !== 'object' || page === null) throw commonError('VALIDATION_ERROR', 'listUsers takes {limit, offset}');
      const limit = page.limit ?? DEFAULT_USER_PAGE;
      const offset = page.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_USER_PAGE) {
        throw commonError('VALIDATION_ERROR', `limit must be an integer from 1 to ${MAX_USER_PAGE}`);
      }
      if (!Number.isInteger(offset) || offset < 0) throw commonError('VALIDATION_ERROR', 'offset must be an integer of 0 or more');
      const { users, total } = await store.listUsers({ limit, offset });
      return { users: users.map((u) => ({ ...toPublicUser(u), roles: u.roles })), total, limit, offset };
    },

    async createSuperuser(email: string, password: string) {
      if (typeof password !== 'string' || password.length === 0) throw commonError('VALIDATION_ERROR', 'password is required');
      const normalized = normalizeEmail(email);
      const passwordHash = await hashNewPassword(password);
      const user = await store.createUser({ email: normalized, passwordHash, emailVerified: true, active: true });
      await store.ensureRole(SUPERUSER_ROLE, 'Full access');
      await store.assignRole(user.id, SUPERUSER_ROLE);
      bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
      return toPublicUser(user);
    },

    roles: {
      async create(name: string, description?: string) {
        const role = await store.createRole(checkRoleName(name), checkRoleDescription(description));
        if (!role) throw commonError('INVALID_OPERATION', `role '${name}' already exists`);
        return role;
      },
      async assign(emailOrId: string, role: string) {
        checkRoleName(role);
        const user = await userOrThrow(emailOrId);
        const result = await store.assignRole(user.id, role);
        if (result === 'no-such-role') throw commonError('VALIDATION_ERROR', `role '${role}' does not exist`);
        if (result === 'no-such-user') throw authError('USER_NOT_FOUND', 'no such user');
      },
      async revoke(emailOrId: string, role: string) {
        checkRoleName(role);
        const user = await userOrThrow(emailOrId);
        await store.revokeRole(user.id, role);
      },
      list: () => store.listRoles(),
      async getUserRoles(emailOrId: string) {
        return store.userRoles((await userOrThrow(emailOrId)).id);
      },
      async userHasRole(emailOrId: string, role: string) {
        checkRoleName(role);
        return (await store.userRoles((await userOrThrow(emailOrId)).id)).includes(role);
      },
      async delete(name: string) {
        checkRoleName(name);
        await store.deleteRole(name);
      },
    },

    on: (listener) => bus.on(listener),
    settle: () => bus.settle(),
    async close() {
      await bus.settle();
      uninstall();
    },
  };

  await store.migrate();
  if (mode === 'admin') return auth;

  const handler = createHandler(auth, {
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    cookie: cfg.cookie,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.trustedOrigins ? { trustedOrigins: options.trustedOrigins } : {}),
  });
  return Object.assign(auth, { handler }) as Auth;
}

/** `normalize(value)`, or null where it refuses the value (a lookup that finds nothing). */
function normalizedOrNull(normalize: (value: unknown) => string, value: unknown): string | null {
  try {
    return normalize(value);
  } catch {
    return null;
  }
}

/**
 * The email listener and the webhooks on the bus. Both validate their configuration (branding,
 * templates, magic-link template, subscriptions) and throw at construction. Returns the uninstall.
 */
function wireExtensions(bus: EventBus, cfg: ResolvedAuthConfig, options: CreateAuthOptions, email: boolean): () => void {
  const logger = options.logger;
  const offEmail = email
    ? installEmailListener(bus, cfg, {
        ...(options.mailer ? { mailer: options.mailer } : {}),
        ...(logger ? { logger } : {}),
      })
    : () => {};
  let offWebhooks: () => void;
  try {
    offWebhooks = installWebhooks(bus, cfg.webhooks, logger ? { logger } : {});
  } catch (err) {
    offEmail();
    throw err;
  }
  return () => {
    offWebhooks();
    offEmail();
  };
}
