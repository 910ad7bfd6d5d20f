/**
 * The contract of @svc/auth: its configuration (spec "Auth configuration (all keys)"), the records
 * it returns (spec "Resources and their fields"), the events it emits (spec "Events") and the
 * `Auth` instance `createAuth` returns. Every operation is a plain async function; `handler` is
 * the same operations behind the Fetch standard.
 */
import type { Database } from '@svc/core';
import type { Mailer, SmtpConfig } from '@svc/smtp';
import type { AuthContext } from './token/verify';
import type { RateLimitsConfig } from './rate-limit';
import type { OAuthConfig } from './oauth/config';
import type { OAuthOperations } from './oauth/operations';

/** Spec "User object". Dates are ISO 8601 UTC with milliseconds. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly username?: string;
  readonly emailVerified: boolean;
  readonly active: boolean;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Spec "Session object". */
export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly token: string;
  readonly refreshToken: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Spec "Auth result (register, login, refresh)". */
export interface AuthResult {
  readonly token: string;
  readonly refreshToken: string;
  readonly session: Session;
  readonly user: User;
}

/**
 * DECISIONS "MFA challenge": what a sign-in answers instead of an Auth result while the user owes
 * a second factor; `challengeToken` goes to `/auth/mfa/totp/login` or
 * `/auth/mfa/recovery-codes/login` within 5 minutes.
 */
export interface MfaChallenge {
  readonly mfaRequired: true;
  readonly challengeToken: string;
  /** `totp`, then `recovery_code` when the user has unused recovery codes. */
  readonly methods: readonly ('totp' | 'recovery_code')[];
  /** ISO 8601. */
  readonly expiresAt: string;
}

/** What a sign-in answers: a session, or the MFA challenge the session waits behind. */
export type SignInResult = AuthResult | MfaChallenge;

export interface Role {
  readonly name: string;
  readonly description: string | null;
}

export interface Branding {
  /** 1 to 80 characters, no CR, LF, NUL or control characters. @default 'Your account' */
  readonly appName?: string;
  /** `#abc`, `#aabbcc` or a space-separated `oklch(...)`. */
  readonly brandColor?: string;
  /** `https://` (or `http://` for localhost/loopback), at most 2048 characters. */
  readonly logoUrl?: string;
  readonly darkLogoUrl?: string;
}

/** What every template receives (spec Events item 7). */
export interface TemplateContext {
  readonly branding: Required<Pick<Branding, 'appName'>> & Branding;
  readonly recipient: string;
}
export interface RenderedEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}
export interface EmailTemplates {
  readonly verification?: (
    ctx: TemplateContext & { baseUrl: string; verificationToken: string },
  ) => RenderedEmail;
  readonly passwordReset?: (
    ctx: TemplateContext & { baseUrl: string; resetToken: string },
  ) => RenderedEmail;
  readonly magicLink?: (
    ctx: TemplateContext & { baseUrl: string; magicLinkToken: string; link?: string },
  ) => RenderedEmail;
  readonly magicCode?: (ctx: TemplateContext & { code: string }) => RenderedEmail;
}

export interface WebhookSubscription {
  readonly url: string;
  readonly events: readonly AuthEventType[];
  readonly secret: string;
}

/** Spec "Auth configuration (all keys)" plus DECISIONS.md's additions. */
export interface AuthConfig {
  readonly jwtSecret: string;
  /** @default 'svc-api' */ readonly jwtAudience?: string;
  /** @default 'svc' */ readonly jwtIssuer?: string;
  /** Seconds. @default 3600 */ readonly tokenExpiry?: number;
  /** Seconds. @default 604800 */ readonly refreshTokenExpiry?: number;
  /** Seconds of inactivity after which a session ends. @default 3600 */ readonly sessionTimeout?: number;
  /** @default true */ readonly allowRegistration?: boolean;
  /** @default false */ readonly requireEmailVerification?: boolean;
  /** @default false */ readonly allowImplicitSignup?: boolean;
  /** @default 12 */ readonly bcryptRounds?: number;
  /** @default 8 */ readonly passwordMinLength?: number;
  /** @default false */ readonly passwordRequireNumbers?: boolean;
  /** @default false */ readonly passwordRequireSpecial?: boolean;
  /** @default false */ readonly passwordRequireUppercase?: boolean;
  readonly branding?: Branding;
  /** Needed to send any email. */ readonly emailBaseUrl?: string;
  readonly emailTemplates?: EmailTemplates;
  readonly magicLinkUrlTemplate?: string;
  /** Unset: a no-op mailer. */ readonly smtp?: SmtpConfig;
  readonly webhooks?: readonly WebhookSubscription[];
  /** Largest user `metadata`, in UTF-8 bytes of its JSON (400 VALIDATION_ERROR above). @default 16384 */
  readonly maxMetadataBytes?: number;
  /** Set the `auth_token` cookie on auth results (HttpOnly, SameSite=Lax, Path=/). @default false */
  readonly cookie?: boolean;
  /** Extra claims (e.g. `permissions`) written into each access token. */
  readonly claims?: (
    user: User,
  ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
  /**
   * Rate limits per rule (DECISIONS.md): `{login: {perEmail: 20}}` overrides one number, `false`
   * (or `{enabled: false}`) turns every limit off. TOML: `[auth.rate_limits.login] per_email = 20`.
   * @default RATE_LIMIT_DEFAULTS
   */
  readonly rateLimits?: RateLimitsConfig;
  // Configured by later features; accepted so configuration files validate: webauthn, captcha,
  // oauth.
  readonly webauthn?: unknown;
  readonly captcha?: unknown;
  /**
   * OAuth / OIDC sign-in: `{providers: {name: google({...}) | github({...}) | ... | oidc({...})},
   * redirectUris: [...], baseUrl?}` (see oauth/config.ts). Unset: the `/auth/oauth/*` routes answer 404.
   */
  readonly oauth?: OAuthConfig;
}

export type AuthEventType =
  | 'EmailVerificationRequested'
  | 'EmailVerified'
  | 'IdentityAuthenticated'
  | 'IdentityCreated'
  | 'MagicCodeRequested'
  | 'MagicLinkRequested'
  | 'MagicLinkSignupRequested'
  | 'PasswordResetRequested';

/**
 * An event (spec "Events"; DECISIONS.md "Webhooks"): the webhook body is this object as JSON.
 * Secrets ride along only where the spec says so (reset, verification, magic-link tokens, codes):
 * a subscriber is how they are delivered when no email is configured.
 */
export interface AuthEvent {
  readonly eventId: string;
  readonly eventType: AuthEventType;
  /** ISO 8601. */
  readonly timestamp: string;
  readonly userId?: string;
  readonly email?: string;
  readonly resetToken?: string;
  readonly verificationToken?: string;
  readonly magicLinkToken?: string;
  readonly magicCode?: string;
  readonly pendingEmail?: string;
}

/** A listener on the event stream: called after the write, never awaited by the request. */
export type AuthEventListener = (event: AuthEvent) => void | Promise<void>;

export interface RequestInfo {
  /** Client IP and user-agent, stored with the session; the IP is also what per-IP rate limits count. */
  readonly ip?: string;
  readonly userAgent?: string;
  /**
   * The request method, when the `Request` cannot carry it: the Fetch standard forbids TRACE,
   * TRACK and CONNECT in a `Request`, so the Node adapter passes a body-less GET `Request` and the
   * real method here, and the handler answers it (405 with `Allow`, or 404).
   */
  readonly method?: string;
}

export interface RegisterInput {
  readonly email: string;
  readonly password: string;
  readonly username?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}
export type LoginInput = { readonly password: string } & (
  | { readonly email: string }
  | { readonly username: string }
);

/** The instance `createAuth` returns. */
export interface Auth {
  readonly config: Readonly<
    Required<
      Pick<
        AuthConfig,
        | 'jwtAudience'
        | 'jwtIssuer'
        | 'tokenExpiry'
        | 'refreshTokenExpiry'
        | 'sessionTimeout'
        | 'bcryptRounds'
      >
    >
  > &
    AuthConfig;
  /** Creates the `svc_auth` tables (Kysely migrations); idempotent. `createAuth` awaits it. */
  migrate(): Promise<void>;

  register(input: RegisterInput, info?: RequestInfo): Promise<AuthResult>;
  /**
   * An Auth result, or an MFA challenge when the user has confirmed TOTP. Over the `login` rate
   * limit (per email and per `info.ip`): RATE_LIMITED before any password check.
   */
  login(input: LoginInput, info?: RequestInfo): Promise<SignInResult>;
  refresh(refreshToken: string, info?: RequestInfo): Promise<AuthResult>;
  logout(accessToken: string): Promise<void>;
  profile(accessToken: string): Promise<User>;
  changePassword(accessToken: string, oldPassword: string, newPassword: string): Promise<void>;
  /**
   * Resolves for known and unknown emails alike (no enumeration); emits PasswordResetRequested for
   * a known email. Over the `passwordReset` rate limit: RATE_LIMITED.
   */
  requestReset(email: string, info?: RequestInfo): Promise<void>;
  confirmReset(resetToken: string, newPassword: string): Promise<void>;
  verifyEmail(verificationToken: string): Promise<void>;
  /**
   * Resolves for any email; a known unverified email gets a new token (the old one dies). Over the
   * `verificationResend` rate limit: RATE_LIMITED.
   */
  resendVerification(email: string, info?: RequestInfo): Promise<void>;
  /** Signature, expiry, audience, issuer, then a live session: the caller's context. */
  verifyToken(accessToken: string): Promise<AuthContext>;

  /** Administrative (CLI, host program). */
  setPassword(emailOrId: string, password: string): Promise<void>;
  /** Revokes every live session of the user; resolves with how many there were. */
  revokeAllSessions(emailOrId: string): Promise<number>;
  setActive(emailOrId: string, active: boolean): Promise<void>;
  findUser(emailOrId: string): Promise<User | null>;
  /**
   * One page of users, oldest first, each with its roles, and how many users there are in all.
   * `limit` 1 to 1000 (default 100), `offset` 0 or more (default 0); else VALIDATION_ERROR.
   */
  listUsers(page?: { limit?: number; offset?: number }): Promise<UserList>;
  createSuperuser(email: string, password: string): Promise<User>;

  roles: {
    create(name: string, description?: string): Promise<Role>;
    assign(emailOrId: string, role: string): Promise<void>;
    revoke(emailOrId: string, role: string): Promise<void>;
    list(): Promise<Role[]>;
    getUserRoles(emailOrId: string): Promise<string[]>;
    userHasRole(emailOrId: string, role: string): Promise<boolean>;
    /** Deletes the role and every assignment of it. */
    delete(name: string): Promise<void>;
  };

  /**
   * OAuth / OIDC sign-in (oauth/operations.ts): `authorize` (the provider URL to send the browser
   * to), `callback` (where to send it back: the app's redirectUri with a one-time `code` or an
   * `error`), `token` (that code for an Auth result or an MFA challenge), `identities` (a user's
   * linked provider accounts). Without `oauth` config: INVALID_OPERATION.
   */
  oauth: OAuthOperations;

  /** Subscribes to the event stream; returns the unsubscribe function. */
  on(listener: AuthEventListener): () => void;
  /** Resolves when every event fired so far has been delivered to every listener (for tests and shutdown). */
  settle(): Promise<void>;

  /**
   * The Fetch-standard handler of every `/auth/*` route. `info` carries what a Request cannot
   * (the client's address, stored with sessions); adapters pass it.
   */
  handler(request: Request, info?: RequestInfo): Promise<Response>;
  close(): Promise<void>;
}

/** A page of `listUsers`. */
export interface UserList {
  readonly users: (User & { readonly roles: string[] })[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/**
 * What `createAuthAdmin` returns: the administrative operations, which sign and verify no token
 * and so need no `jwtSecret` (what `svc admin` uses).
 */
export type AuthAdmin = Pick<
  Auth,
  | 'migrate'
  | 'setPassword'
  | 'revokeAllSessions'
  | 'setActive'
  | 'findUser'
  | 'listUsers'
  | 'createSuperuser'
  | 'roles'
  | 'on'
  | 'settle'
  | 'close'
>;

/** The configuration of `createAuthAdmin`: `AuthConfig` with `jwtSecret` optional (unused). */
export type AuthAdminConfig = Omit<AuthConfig, 'jwtSecret'> & { readonly jwtSecret?: string };

export interface CreateAuthOptions {
  readonly database: Database;
  /** Replaces the mailer made from `smtp` (tests capture mail this way). */
  readonly mailer?: Mailer;
  /** Clock, for tests. @default Date.now */
  readonly now?: () => number;
  /** Where problems that must not fail a request are logged (webhook and mail delivery). */
  readonly logger?: {
    warn(obj: unknown, msg?: string): void;
    error(obj: unknown, msg?: string): void;
    info?(obj: unknown, msg?: string): void;
  };
  /** Mount path of the handler's routes. @default '/auth' */
  readonly basePath?: string;
  /**
   * Origins (`scheme://host[:port]`) besides the request's own whose pages may send
   * state-changing requests authenticated by the `auth_token` cookie; from any other page such a
   * request is 403 ACCESS_DENIED. @default none
   */
  readonly trustedOrigins?: readonly string[];
}
