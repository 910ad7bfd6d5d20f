/**
 * `createAuth(config, options)`: the @svc/auth instance over a `Database` (PostgreSQL or PGlite,
 * schema `svc_auth`) or any `AuthStore`. This file is the assembly only: it resolves the
 * configuration, builds the one `OperationContext` (store, clock, randomness, event bus, rate
 * limiter, password hasher, token signer, logger), wires the email listener and the webhooks to
 * the bus, and binds each feature's plain functions into the `Auth` object:
 *
 *   account/       register, login, profile (and the identifier validators)
 *   session/       refresh, logout, verifyToken (and issuing and checking sessions)
 *   password/      changePassword, requestReset, confirmReset (and the policy and hasher)
 *   verification/  verifyEmail, resendVerification
 *   roles/         roles.create, assign, revoke, list, getUserRoles, userHasRole, delete,
 *                  memberCounts
 *   admin/         setPassword, revokeAllSessions, setActive, findUser, listUsers, createUser,
 *                  createSuperuser, userFactors, resetMfa, deleteUserPasskey
 *   passwordless/  requestMagicLink, consumeMagicLink, requestMagicCode, verifyMagicCode
 *   mfa/           mfa.enrollTotp, confirmTotp, disableTotp, generateRecoveryCodes, totpLogin,
 *                  recoveryCodeLogin (and the MFA challenge completeSignIn returns)
 *   guest/         signInAnonymously, upgrade (and the sweep of guests past guestRetention)
 *   rate-limit/, csrf/, events/, email/, webhooks/   what the operations and the handler use
 *
 * `handler` is the same operations behind the Fetch standard (`http/`).
 */
import { randomBytes } from 'node:crypto';
import { commonError } from '@svc/core';
import { login, profile, register } from './account/operations';
import {
  createSuperuser,
  createUser,
  deleteUserPasskey,
  findUser,
  listUsers,
  revokeAllSessions,
  listUserSessions,
  resetMfa,
  revokeUserSession,
  setActive,
  setPassword,
  userFactors,
} from './admin/operations';
import { resolveAuthConfig, resolveSettings, type ResolvedAuthConfig } from './config';
import type { OperationContext } from './context';
import { DevMailbox, installEmailListener } from './email';
import { createEventBus, type EventBus } from './events';
import { createHandler } from './http/handler';
import {
  confirmTotp,
  disableTotp,
  enrollTotp,
  generateRecoveryCodes,
  recoveryCodeLogin,
  totpLogin,
} from './mfa/operations';
import { resolveOAuthConfig } from './oauth/config';
import { createOAuthOperations } from './oauth/operations';
import { changePassword, confirmReset, requestReset } from './password/operations';
import { createPasswordHasher } from './password';
import {
  consumeMagicLink,
  requestMagicCode,
  requestMagicLink,
  verifyMagicCode,
} from './passwordless/operations';
import { createRateLimiter } from './rate-limit';
import {
  assignRole,
  createRole,
  deleteRole,
  getUserRoles,
  listRoles,
  revokeRole,
  roleMemberCounts,
  userHasRole,
} from './roles/operations';
import { checkToken, logout, refresh, verifyToken } from './session/operations';
import { verifyCaptcha } from './captcha';
import { signInAnonymously, upgrade } from './guest/operations';
import { createGuestSweeper } from './guest/retention';
import { listSessions, revokeOtherSessions, revokeSession } from './session/list';
import { createPostgresStore } from './store/postgres';
import type { AuthStore } from './store/types';
import { createTokenVerifier } from './token/verify';
import type { Auth, AuthAdmin, AuthAdminConfig, AuthConfig, CreateAuthOptions } from './types';
import { resendVerification, verifyEmail } from './verification/operations';
import {
  deleteCredential,
  listCredentials,
  loginBegin as webauthnLoginBegin,
  loginFinish as webauthnLoginFinish,
  registerBegin as webauthnRegisterBegin,
  registerFinish as webauthnRegisterFinish,
} from './webauthn/operations';
import { installWebhooks } from './webhooks';

/** Options beyond the contract's, for tests and for hosts with their own storage. */
export interface CreateAuthInternals {
  /** Storage to use instead of the Postgres store over `options.database`. */
  readonly store?: AuthStore;
  /** Randomness (refresh, reset and verification tokens). @default crypto.randomBytes */
  readonly random?: (n: number) => Buffer;
}

/**
 * An auth instance: every operation as a plain async function, and `handler` for the `/auth/*`
 * routes. Validates the configuration (TypeError naming the key), installs the email listener and
 * the webhooks (which validate theirs), and runs the `svc_auth` migrations before it resolves.
 *
 * @example
 * const auth = await createAuth({ jwtSecret: process.env.JWT_SECRET! }, { database });
 * const { token } = await auth.login({ email: 'ada@example.com', password: 'a long passphrase' });
 */
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
  'listUserSessions',
  'revokeUserSession',
  'setActive',
  'findUser',
  'listUsers',
  'createSuperuser',
  'createUser',
  'userFactors',
  'resetMfa',
  'deleteUserPasskey',
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

/** The context every operation runs over (see context.ts). */
function createContext(
  cfg: ResolvedAuthConfig,
  options: CreateAuthOptions,
  internals: CreateAuthInternals,
): OperationContext {
  const now = options.now ?? Date.now;
  const store = internals.store ?? createPostgresStore(options.database, { now });
  const logger = options.logger;
  return {
    config: cfg,
    store,
    now,
    random: internals.random ?? randomBytes,
    bus: createEventBus({ ...(logger ? { logger } : {}), now }),
    limiter: createRateLimiter({
      store,
      limits: cfg.rateLimits,
      now,
      ...(logger ? { logger } : {}),
    }),
    passwords: createPasswordHasher(cfg.bcryptRounds),
    policy: {
      minLength: cfg.passwordMinLength,
      requireNumbers: cfg.passwordRequireNumbers,
      requireSpecial: cfg.passwordRequireSpecial,
      requireUppercase: cfg.passwordRequireUppercase,
    },
    // Without a secret (createAuthAdmin) nothing may sign or verify: no admin operation does.
    tokens:
      typeof cfg.jwtSecret === 'string'
        ? createTokenVerifier({
            jwtSecret: cfg.jwtSecret,
            jwtAudience: cfg.jwtAudience,
            jwtIssuer: cfg.jwtIssuer,
            now,
          })
        : undefined,
    logger,
    guests: createGuestSweeper({
      store,
      retentionSeconds: cfg.guestRetention,
      now,
      logger,
    }),
  };
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
  const ctx = createContext(cfg, options, internals);
  const { bus, store } = ctx;
  const devMailbox = mode === 'full' ? devMailboxFor(cfg, options) : undefined;
  const uninstall = wireExtensions(bus, cfg, options, mode === 'full', devMailbox);

  const auth: Omit<Auth, 'handler'> = {
    config: cfg,
    ...(devMailbox ? { devMailbox } : {}),
    migrate: () => store.migrate(),
    register: (input, info) => register(ctx, input, info),
    login: (input, info) => login(ctx, input, info),
    refresh: (refreshToken, info) => refresh(ctx, refreshToken, info),
    logout: (accessToken) => logout(ctx, accessToken),
    profile: (accessToken) => profile(ctx, accessToken),
    changePassword: (accessToken, oldPassword, newPassword) =>
      changePassword(ctx, accessToken, oldPassword, newPassword),
    requestReset: (email, info) => requestReset(ctx, email, info),
    confirmReset: (resetToken, newPassword) => confirmReset(ctx, resetToken, newPassword),
    verifyEmail: (verificationToken) => verifyEmail(ctx, verificationToken),
    resendVerification: (email, info) => resendVerification(ctx, email, info),
    verifyToken: (accessToken) => verifyToken(ctx, accessToken),
    checkToken: (accessToken) => checkToken(ctx, accessToken),
    requestMagicLink: (email, info) => requestMagicLink(ctx, email, info),
    consumeMagicLink: (token, info) => consumeMagicLink(ctx, token, info),
    requestMagicCode: (email, info) => requestMagicCode(ctx, email, info),
    verifyMagicCode: (email, code, info) => verifyMagicCode(ctx, email, code, info),
    signInAnonymously: (info) => signInAnonymously(ctx, info),
    upgrade: (accessToken, input, info) => upgrade(ctx, accessToken, input, info),
    listSessions: (accessToken) => listSessions(ctx, accessToken),
    revokeSession: (accessToken, sessionId) => revokeSession(ctx, accessToken, sessionId),
    revokeOtherSessions: (accessToken) => revokeOtherSessions(ctx, accessToken),
    async verifyCaptcha(captchaToken, info) {
      if (!cfg.captcha) throw commonError('INVALID_OPERATION', 'captcha is not configured');
      await verifyCaptcha(cfg.captcha, captchaToken, {
        ip: info?.ip,
        logger: options.logger,
      });
    },
    setPassword: (emailOrId, password) => setPassword(ctx, emailOrId, password),
    revokeAllSessions: (emailOrId) => revokeAllSessions(ctx, emailOrId),
    listUserSessions: (emailOrId) => listUserSessions(ctx, emailOrId),
    revokeUserSession: (emailOrId, sessionId) => revokeUserSession(ctx, emailOrId, sessionId),
    setActive: (emailOrId, active) => setActive(ctx, emailOrId, active),
    findUser: (emailOrId) => findUser(ctx, emailOrId),
    listUsers: (page) => listUsers(ctx, page),
    createSuperuser: (email, password) => createSuperuser(ctx, email, password),
    createUser: (input) => createUser(ctx, input),
    userFactors: (emailOrId) => userFactors(ctx, emailOrId),
    resetMfa: (emailOrId) => resetMfa(ctx, emailOrId),
    deleteUserPasskey: (emailOrId, credentialId) => deleteUserPasskey(ctx, emailOrId, credentialId),
    roles: {
      create: (name, description) => createRole(ctx, name, description),
      assign: (emailOrId, role, options) => assignRole(ctx, emailOrId, role, options),
      revoke: (emailOrId, role) => revokeRole(ctx, emailOrId, role),
      list: () => listRoles(ctx),
      getUserRoles: (emailOrId) => getUserRoles(ctx, emailOrId),
      userHasRole: (emailOrId, role) => userHasRole(ctx, emailOrId, role),
      delete: (name) => deleteRole(ctx, name),
      memberCounts: () => roleMemberCounts(ctx),
    },
    webauthn: {
      registerBegin: (accessToken, code, info) =>
        webauthnRegisterBegin(ctx, accessToken, code, info),
      registerFinish: (accessToken, input, info) =>
        webauthnRegisterFinish(ctx, accessToken, input, info),
      loginBegin: (input, info) => webauthnLoginBegin(ctx, input, info),
      loginFinish: (input, info) => webauthnLoginFinish(ctx, input, info),
      listCredentials: (accessToken) => listCredentials(ctx, accessToken),
      deleteCredential: (accessToken, credentialId, code, info) =>
        deleteCredential(ctx, accessToken, credentialId, code, info),
    },
    mfa: {
      enrollTotp: (accessToken, code, info) => enrollTotp(ctx, accessToken, code, info),
      confirmTotp: (accessToken, code, info) => confirmTotp(ctx, accessToken, code, info),
      disableTotp: (accessToken, code, info) => disableTotp(ctx, accessToken, code, info),
      generateRecoveryCodes: (accessToken, code, info) =>
        generateRecoveryCodes(ctx, accessToken, code, info),
      totpLogin: (challengeToken, code, info) => totpLogin(ctx, challengeToken, code, info),
      recoveryCodeLogin: (challengeToken, code, info) =>
        recoveryCodeLogin(ctx, challengeToken, code, info),
    },
    oauth: createOAuthOperations(
      ctx,
      cfg.oauth === undefined ? undefined : resolveOAuthConfig(cfg.oauth),
    ),
    on: (listener) => bus.on(listener),
    async settle() {
      await Promise.all([bus.settle(), ctx.guests.idle()]);
    },
    async close() {
      await Promise.all([bus.settle(), ctx.guests.idle()]);
      uninstall();
    },
  };

  await store.migrate();
  if (mode === 'admin') return auth;
  // Guests abandoned while no process ran go at start (in the background: the start does not wait).
  ctx.guests.poke();

  const handler = createHandler(auth, {
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    cookie: cfg.cookie,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.trustedOrigins ? { trustedOrigins: options.trustedOrigins } : {}),
  });
  return Object.assign(auth, { handler }) as Auth;
}

/**
 * The development inbox: only when no mailer is configured or injected; then as
 * `options.devMailbox` says (a mailbox of the caller's, true, false), by default when `NODE_ENV`
 * is not `production`.
 */
function devMailboxFor(
  cfg: ResolvedAuthConfig,
  options: CreateAuthOptions,
): DevMailbox | undefined {
  if (cfg.smtp !== undefined || options.mailer !== undefined) return undefined;
  const wanted = options.devMailbox ?? process.env.NODE_ENV !== 'production';
  if (wanted === false) return undefined;
  return wanted === true ? new DevMailbox() : wanted;
}

/**
 * The email listener and the webhooks on the bus. Both validate their configuration (branding,
 * templates, magic-link template, subscriptions) and throw at construction. Returns the uninstall.
 */
function wireExtensions(
  bus: EventBus,
  cfg: ResolvedAuthConfig,
  options: CreateAuthOptions,
  email: boolean,
  devMailbox?: DevMailbox,
): () => void {
  const logger = options.logger;
  const offEmail = email
    ? installEmailListener(bus, cfg, {
        ...(options.mailer ? { mailer: options.mailer } : {}),
        ...(devMailbox ? { devMailbox } : {}),
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
