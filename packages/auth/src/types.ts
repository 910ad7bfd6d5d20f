/**
 * The contract of @svc/auth: its configuration, the records it returns (as docs/http.md shows
 * them over HTTP), the events it emits (docs/http.md, "Webhooks") and the
 * `Auth` instance `createAuth` returns. Every operation is a plain async function; `handler` is
 * the same operations behind the Fetch standard.
 */
import type { Database, Probe } from '@svc/core';
import type { Mailer, SmtpConfig } from '@svc/smtp';
import type { AuthContext } from './token/verify';
import type { RateLimitsConfig } from './rate-limit';
import type { CaptchaConfig } from './captcha';
import type { WebAuthnConfig } from './webauthn/config';
import type {
  WebAuthnBegin,
  WebAuthnCredentialInfo,
  WebAuthnLoginFinishInput,
  WebAuthnLoginOptions,
  WebAuthnRegisteredCredential,
  WebAuthnRegisterFinishInput,
  WebAuthnRegistrationOptions,
} from './webauthn/operations';
import type { OAuthConfig } from './oauth/config';
import type { OAuthOperations } from './oauth/operations';
import type { DevMailbox } from './email/dev-mailbox';

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
 * The MFA challenge (docs/http.md): what a sign-in answers instead of an Auth result while the user owes
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

/** What enrolling in TOTP answers (shown once; the secret is stored encrypted). */
export interface TotpEnrollment {
  /** The shared secret, RFC 4648 base32 without padding (160 bits). */
  readonly secret: string;
  /** `otpauth://totp/<appName>:<email>?secret=..&issuer=<appName>&algorithm=SHA1&digits=6&period=30` */
  readonly otpauthUri: string;
}

/** Recovery codes: a new batch, shown once (`XXXXX-XXXXX`, 8 of them). */
export interface RecoveryCodes {
  readonly codes: readonly string[];
}

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

/** What every template receives. */
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

/** Every auth setting (packages/auth/README.md lists them with their defaults). */
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
  /**
   * Serve the hosted pages for the links of svc's emails (`GET /auth/magic`, `GET /auth/reset`,
   * the HTML answer of `GET /auth/verify`, `GET /auth/passkey`): docs/http.md, "Hosted pages".
   * An app with its own pages may turn them off (their routes then answer 404). @default true
   */
  readonly hostedPages?: boolean;
  /**
   * Where the hosted pages may send the browser after a sign-in (`redirectTo`): absolute URLs,
   * `https://` (or `http://` on loopback); an origin allows its every path, a URL with a path
   * that path only. @default [] (only paths of the server's own origin)
   */
  readonly redirectAllowList?: readonly string[];
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
   * Rate limits per rule (docs/http.md): `{login: {perEmail: 20}}` overrides one number, `false`
   * (or `{enabled: false}`) turns every limit off. TOML: `[auth.rate_limits.login] per_email = 20`.
   * @default RATE_LIMIT_DEFAULTS
   */
  readonly rateLimits?: RateLimitsConfig;
  /**
   * A refresh token presented again after a refresh retired it revokes every session of its
   * rotation family (the sign-in it descends from) and answers INVALID_REFRESH_TOKEN; within 10 s
   * of the rotation (a lost race of concurrent refreshes) it only answers INVALID_REFRESH_TOKEN.
   * @default true
   */
  readonly refreshTokenReuseDetection?: boolean;
  /**
   * Seconds of inactivity after which a guest (`POST /auth/anonymous`, never upgraded) is deleted
   * with its sessions: inactive since its creation and the last activity of any of its sessions.
   * Guests are swept at start and, at most every 10 minutes per process, as requests come; `0`
   * keeps them forever. Otherwise at least 3600 and at least `sessionTimeout`.
   * TOML: `[auth] guest_retention`.
   * @default 2592000 (30 days), or `sessionTimeout` when that is longer
   */
  readonly guestRetention?: number;
  /** Passkeys; absent: every WebAuthn operation is INVALID_OPERATION. */
  readonly webauthn?: WebAuthnConfig;
  /** Captcha gate: see `CaptchaConfig`. Absent: no captcha. */
  readonly captcha?: CaptchaConfig;
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
  | 'PasswordResetRequested'
  // Audit events (webauthn_counter_regression): on the same stream as the others.
  | 'webauthn_counter_regression';

/**
 * An event (docs/http.md, "Webhooks"): the webhook body is this object as JSON.
 * Secrets ride along only on the events that deliver them (reset, verification, magic-link tokens, codes):
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
  /** `webauthn_counter_regression`: the credential (base64url id) and the two counters. */
  readonly credentialId?: string;
  readonly storedCounter?: number;
  readonly receivedCounter?: number;
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

/** `auth.roles.assign`'s options. */
export interface AssignRoleOptions {
  /**
   * Create the role when no role has that name, instead of refusing it with VALIDATION_ERROR.
   * @default false
   */
  readonly createIfMissing?: boolean;
}

/** What `auth.roles.assign` did besides assigning. */
export interface AssignRoleResult {
  /** True when the role did not exist and this call created it (`createIfMissing`). */
  readonly roleCreated: boolean;
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

/** `auth.upgrade`: the guest's new identity. */
export interface UpgradeInput {
  readonly email: string;
  readonly password: string;
}

/** One entry of `GET /auth/sessions` (issue 12). Dates ISO 8601. */
export interface SessionInfo {
  readonly id: string;
  readonly createdAt: string;
  readonly lastActivityAt: string;
  /** When the session's refresh token dies. */
  readonly expiresAt: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** A short description read from the user agent ("Firefox on Linux"), or null. */
  readonly device: string | null;
  /** The session of the token that asked. */
  readonly current: boolean;
}

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
  /**
   * `verifyToken` in two steps: the signature, expiry, audience and issuer now (INVALID_TOKEN
   * thrown here), the session later, by `confirm()` or by the probe run in the caller's own
   * statement (TokenCheck). Nothing may be answered on the context before one of them resolved.
   */
  checkToken(accessToken: string): TokenCheck;

  // --- passwordless (magic links and codes) ---------------------------------------------------
  /**
   * Resolves for any email (no enumeration); a known active account gets a 15-minute link in a
   * MagicLinkRequested event, an unknown email a signup link (MagicLinkSignupRequested) when
   * `allowImplicitSignup` is on; otherwise nothing is stored. Over the `magicLinkRequest` rate
   * limit: RATE_LIMITED.
   */
  requestMagicLink(email: string, info?: RequestInfo): Promise<void>;
  /**
   * Redeems a link (single use, consumed even when an MFA challenge is answered): an Auth result
   * or the challenge; a signup link creates the verified account first. INVALID_TOKEN for an
   * unknown, used, superseded or expired link; USER_INACTIVE for a deactivated account.
   */
  consumeMagicLink(token: string, info?: RequestInfo): Promise<SignInResult>;
  /**
   * Resolves for any email; a known active account gets a new 6-digit code (10 minutes; the
   * earlier code dies) in a MagicCodeRequested event. Over `magicCodeRequest`: RATE_LIMITED.
   */
  requestMagicCode(email: string, info?: RequestInfo): Promise<void>;
  /**
   * The email's live code: an Auth result or an MFA challenge. INVALID_TOKEN for a wrong, used,
   * expired or exhausted code (5 wrong tries), VALIDATION_ERROR when `code` is not 6 digits.
   */
  verifyMagicCode(email: string, code: string, info?: RequestInfo): Promise<SignInResult>;
  // --- guests, sessions, captcha (issue 12) -----------------------------------------------------
  /**
   * A new guest user (`<uuid>@anonymous.invalid`, no password) and its session. Over the
   * `anonymous` rate limit (per `info.ip`): RATE_LIMITED; REGISTRATION_DISABLED when registration is off.
   */
  signInAnonymously(info?: RequestInfo): Promise<AuthResult>;
  /**
   * The caller's guest account gets an email and password, same user id; every earlier session
   * ends and a new one is issued. INVALID_OPERATION when the caller is not a guest.
   */
  upgrade(accessToken: string, input: UpgradeInput, info?: RequestInfo): Promise<SignInResult>;
  /** The caller's live sessions, most recently active first. */
  listSessions(accessToken: string): Promise<SessionInfo[]>;
  /** Ends one of the caller's sessions (NOT_FOUND for any other id); says if it was the current one. */
  revokeSession(accessToken: string, sessionId: string): Promise<{ current: boolean }>;
  /** Ends every session of the caller but the current one; resolves with how many. */
  revokeOtherSessions(accessToken: string): Promise<number>;
  /**
   * Checks a captcha token with the configured provider: CAPTCHA_FAILED (400) when missing or
   * refused, SERVICE_UNAVAILABLE (503) when the provider cannot answer, INVALID_OPERATION
   * without `captcha` configured. The handler calls it on the gated routes.
   */
  verifyCaptcha(captchaToken: unknown, info?: RequestInfo): Promise<void>;

  /** Administrative (CLI, host program). */
  setPassword(emailOrId: string, password: string): Promise<void>;
  /** Revokes every live session of the user; resolves with how many there were. */
  revokeAllSessions(emailOrId: string): Promise<number>;
  /** The user's live sessions, most recently active first (`current` always false). */
  listUserSessions(emailOrId: string): Promise<SessionInfo[]>;
  /** Ends one session of the user: NOT_FOUND when the user has no such live session. */
  revokeUserSession(emailOrId: string, sessionId: string): Promise<void>;
  setActive(emailOrId: string, active: boolean): Promise<void>;
  findUser(emailOrId: string): Promise<User | null>;
  /**
   * One page of users, oldest first, each with its roles, and how many users there are in all.
   * `limit` 1 to 1000 (default 100), `offset` 0 or more (default 0); else VALIDATION_ERROR.
   */
  listUsers(page?: { limit?: number; offset?: number }): Promise<UserList>;
  createSuperuser(email: string, password: string): Promise<User>;
  /**
   * An active user made by an administrator (whatever `allowRegistration` says): the password
   * policy applies, `emailVerified` defaults to false, no session is issued and no email sent.
   * USER_ALREADY_EXISTS when the email is taken.
   *
   * @example
   * await auth.createUser({ email: 'ada@example.com', password: 'a long passphrase' });
   */
  createUser(input: {
    readonly email: string;
    readonly password: string;
    readonly emailVerified?: boolean;
  }): Promise<User>;
  /** The user's TOTP state, unused recovery codes and passkeys (nothing secret). */
  userFactors(emailOrId: string): Promise<UserFactors>;
  /**
   * Removes the user's TOTP enrolment and every recovery code (a lost authenticator); sessions
   * and passkeys stay. Says whether TOTP was enrolled and how many unused codes there were.
   */
  resetMfa(emailOrId: string): Promise<{ totp: boolean; recoveryCodes: number }>;
  /** Removes one passkey of the user: NOT_FOUND when they hold no such credential. */
  deleteUserPasskey(emailOrId: string, credentialId: string): Promise<void>;

  roles: {
    create(name: string, description?: string): Promise<Role>;
    /**
     * Assigns `role` to the user (idempotent; in tokens from the next sign-in on). A role that
     * does not exist is refused with VALIDATION_ERROR, so a misspelt name creates nothing, unless
     * `createIfMissing` is set: then it is created (without a description) and `roleCreated` says so.
     *
     * @example
     * const { roleCreated } = await auth.roles.assign('ada@example.com', 'editor', { createIfMissing: true });
     */
    assign(emailOrId: string, role: string, options?: AssignRoleOptions): Promise<AssignRoleResult>;
    revoke(emailOrId: string, role: string): Promise<void>;
    list(): Promise<Role[]>;
    getUserRoles(emailOrId: string): Promise<string[]>;
    userHasRole(emailOrId: string, role: string): Promise<boolean>;
    /** Deletes the role and every assignment of it. */
    delete(name: string): Promise<void>;
    /** How many users hold each role, by name (every role, 0 included). */
    memberCounts(): Promise<Record<string, number>>;
  };

  /**
   * Passkeys (WebAuthn L2, ES256, attestation `none` and `packed`). Without `webauthn` in the
   * configuration every one answers INVALID_OPERATION (400). Binary values are base64url.
   * For a user with confirmed TOTP, registering and deleting need an `aal2` session or `code`, a
   * current TOTP code or an unused recovery code (else MFA_REQUIRED, 403), as `mfa` below.
   */
  webauthn: {
    /**
     * Options for `navigator.credentials.create`, bound to the caller; the challenge lives 5
     * minutes. A `code` given here (when one is needed) also serves the finish.
     */
    registerBegin(
      accessToken: string,
      code?: string,
      info?: RequestInfo,
    ): Promise<WebAuthnBegin<WebAuthnRegistrationOptions>>;
    /** Verifies the attestation and stores the passkey. */
    registerFinish(
      accessToken: string,
      input: WebAuthnRegisterFinishInput,
      info?: RequestInfo,
    ): Promise<{ credential: WebAuthnRegisteredCredential }>;
    /**
     * Options for `navigator.credentials.get`: without an email any discoverable credential may
     * answer; with one, that user's passkeys (an unknown email answers the same shape).
     * Rate-limited (`webauthnLoginBegin`).
     */
    loginBegin(
      input?: { readonly email?: string | null },
      info?: RequestInfo,
    ): Promise<WebAuthnBegin<WebAuthnLoginOptions>>;
    /**
     * Verifies the assertion: an Auth result, or an MFA challenge when the authenticator did not
     * verify the user and a second factor is owed. Rate-limited (`webauthnLoginFinish`).
     */
    loginFinish(input: WebAuthnLoginFinishInput, info?: RequestInfo): Promise<SignInResult>;
    /** The caller's passkeys, oldest first. */
    listCredentials(accessToken: string): Promise<{ credentials: WebAuthnCredentialInfo[] }>;
    /** Deletes one of the caller's passkeys (NOT_FOUND for anyone else's). */
    deleteCredential(
      accessToken: string,
      credentialId: string,
      code?: string,
      info?: RequestInfo,
    ): Promise<void>;
  };

  /**
   * Multi-factor authentication (src/mfa). The access-token operations act on the token's user;
   * the two logins answer the MFA challenge a sign-in returned. Wrong codes: INVALID_CREDENTIALS;
   * a dead challenge (unknown, used, expired, 5 tries spent): INVALID_TOKEN; over the `mfaVerify`
   * rate limit: RATE_LIMITED.
   *
   * Managing a confirmed factor (enrolling again, disabling, generating recovery codes) needs the
   * factor: an `aal2` session (one that completed the MFA challenge, or a user-verified passkey
   * sign-in), or `code`, a current TOTP code (used up) or an unused recovery code (burned).
   * Otherwise, or with a wrong code: MFA_REQUIRED (403), and nothing changes. A user without
   * confirmed TOTP passes no `code`.
   */
  mfa: {
    /** A new TOTP secret, pending until confirmed; any earlier secret stops working. */
    enrollTotp(accessToken: string, code?: string, info?: RequestInfo): Promise<TotpEnrollment>;
    /** A 6-digit code of the pending secret confirms it: later sign-ins owe the challenge. */
    confirmTotp(accessToken: string, code: string, info?: RequestInfo): Promise<void>;
    /** Removes confirmed TOTP (an `aal2` session, or `code`). */
    disableTotp(accessToken: string, code?: string, info?: RequestInfo): Promise<void>;
    /** A new batch of 8 recovery codes; every earlier code dies. */
    generateRecoveryCodes(
      accessToken: string,
      code?: string,
      info?: RequestInfo,
    ): Promise<RecoveryCodes>;
    /** The challenge token and a current TOTP code: the session the sign-in waited for. */
    totpLogin(challengeToken: string, code: string, info?: RequestInfo): Promise<AuthResult>;
    /** The challenge token and an unused recovery code (burned): the session. */
    recoveryCodeLogin(
      challengeToken: string,
      code: string,
      info?: RequestInfo,
    ): Promise<AuthResult>;
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
  /**
   * Resolves when every event fired so far has been delivered to every listener, and a guest
   * sweep under way has finished (for tests and shutdown).
   */
  settle(): Promise<void>;

  /**
   * The Fetch-standard handler of every `/auth/*` route. `info` carries what a Request cannot
   * (the client's address, stored with sessions); adapters pass it.
   */
  handler(request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * The development inbox (docs/http.md, "Development inbox"): the emails that would have been
   * sent, when no mailer is configured (and `CreateAuthOptions.devMailbox` did not turn it off).
   */
  readonly devMailbox?: DevMailbox;
  close(): Promise<void>;
}

/** What `userFactors` says of a user's second factors and passkeys. */
export interface UserFactors {
  /** `confirmed`: TOTP is enrolled; `pending`: enrolment begun, never confirmed. */
  readonly totp: 'none' | 'pending' | 'confirmed';
  readonly recoveryCodesLeft: number;
  readonly passkeys: readonly WebAuthnCredentialInfo[];
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
  | 'listUserSessions'
  | 'revokeUserSession'
  | 'setActive'
  | 'findUser'
  | 'listUsers'
  | 'createSuperuser'
  | 'createUser'
  | 'userFactors'
  | 'resetMfa'
  | 'deleteUserPasskey'
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
  /**
   * The development inbox, kept only when no mailer is configured or injected: a `DevMailbox` to
   * use, `true`, or `false` for none. @default true unless `NODE_ENV` is `production`
   */
  readonly devMailbox?: boolean | DevMailbox;
}

/** A verified access token whose session is still to be read (`Auth.checkToken`). */
export interface TokenCheck {
  /** The caller, from the token's claims. */
  readonly context: AuthContext;
  /** Reads the session: resolves when it is live, else throws 401 (SESSION_EXPIRED, USER_INACTIVE). */
  confirm(): Promise<void>;
  /**
   * The same read as SQL, for @svc/core's query engine to run in the query's own statement
   * (`RunOptions.probe`): present when the store is in the database the queries run on.
   */
  readonly probe: Probe | undefined;
}
