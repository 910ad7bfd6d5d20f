/**
 * What each `/auth/*` operation takes and answers, keyed `METHOD path` like the handler's
 * operations (`../http/handler.ts`) and the route table (`../routes/table.ts`). Only what is
 * particular to a route is written here; `./index.ts` adds what every route of a kind answers
 * (the token errors of protected routes, the body errors of routes that read JSON, 429 on
 * rate-limited routes, captcha, 500).
 *
 * `errors` lists, by status, the codes the route's own operation throws (see the operation's
 * validator in its feature folder). A table row without an entry here makes `authOpenApi` throw.
 */
import type { JsonSchema } from './schemas';

/** How the route answers when it succeeds. */
export type Success =
  | {
      readonly status: 200 | 201;
      /** A component schema name. */
      readonly schema: string;
      readonly description: string;
      /** The answer starts a session (`issue`) or ends the caller's (`clear`): the cookie changes. */
      readonly session?: 'issue' | 'clear';
    }
  | { readonly status: 302 | 303; readonly description: string };

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface OperationDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  /** A JSON request body: its component schema name, and whether the route needs one at all. */
  readonly body?: { readonly schema: string; readonly required: boolean };
  /** `application/x-www-form-urlencoded` (or JSON) body of a provider's form_post callback. */
  readonly form?: string;
  /** Path and query parameters. */
  readonly parameters?: readonly Parameter[];
  readonly success: Success;
  /** The operation's own error codes by HTTP status. */
  readonly errors?: Readonly<Record<number, readonly string[]>>;
  /** Counted by a rate-limit rule (DECISIONS "Rate limits"): 429 with Retry-After. */
  readonly rateLimited?: true;
}

const SUCCESS = (description: string, session?: 'clear'): Success => ({
  status: 200,
  schema: 'AuthSuccess',
  description,
  ...(session ? { session } : {}),
});
const SIGN_IN: Success = {
  status: 200,
  schema: 'AuthSignInResult',
  description: 'Signed in, or an MFA challenge when the user owes a second factor.',
  session: 'issue',
};
const SESSION_ONLY = (description: string, status: 200 | 201 = 200): Success => ({
  status,
  schema: 'AuthResult',
  description,
  session: 'issue',
});
const jsonBody = (schema: string, required = true) => ({ schema, required });

const PASSWORD_ERRORS = ['VALIDATION_ERROR', 'PASSWORD_TOO_WEAK'];
/**
 * Managing a confirmed second factor (DECISIONS "Added 2026-11-29"): an `aal1` session without a
 * good `code` is 403 MFA_REQUIRED; a `code` that is sent is always checked, after the `mfaVerify`
 * limit (429), and a wrong one from an `aal2` session is 401 INVALID_CREDENTIALS.
 */
const SECOND_FACTOR_NOTE =
  'For a user with confirmed TOTP: an `aal2` session, or `code` (a current TOTP code or an unused recovery code, spent); otherwise 403 MFA_REQUIRED and nothing changes. A `code` sent is always checked (wrong from an `aal2` session: 401 INVALID_CREDENTIALS).';
const SECOND_FACTOR_ERRORS = { 401: ['INVALID_CREDENTIALS'], 403: ['MFA_REQUIRED'] };
/** A sign-in that has found its user: it may still be refused. */
const SIGN_IN_REFUSED = ['USER_INACTIVE', 'EMAIL_NOT_VERIFIED'];
const PROVIDER: Parameter = {
  name: 'provider',
  in: 'path',
  required: true,
  description: 'A provider name of `authConfig.oauth.providers`.',
  schema: { type: 'string' },
};
const OAUTH_PROVIDER_ERRORS = { 404: ['NOT_FOUND'], 503: ['SERVICE_UNAVAILABLE'] };

export const AUTH_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  'POST /register': {
    operationId: 'authRegister',
    summary: 'Create an account and sign in',
    body: jsonBody('AuthRegisterRequest'),
    success: SESSION_ONLY('The new account and its first session.', 201),
    errors: {
      400: PASSWORD_ERRORS,
      403: ['REGISTRATION_DISABLED'],
      409: ['USER_ALREADY_EXISTS'],
    },
  },
  'POST /login': {
    operationId: 'authLogin',
    summary: 'Sign in with a password',
    body: jsonBody('AuthLoginRequest'),
    success: SIGN_IN,
    errors: { 401: ['INVALID_CREDENTIALS'], 403: SIGN_IN_REFUSED },
    rateLimited: true,
  },
  'POST /refresh': {
    operationId: 'authRefresh',
    summary: 'Exchange a refresh token for a new session',
    description: 'The refresh token is single use: the old session ends.',
    body: jsonBody('AuthRefreshRequest'),
    success: SESSION_ONLY('The rotated session.'),
    errors: { 401: ['INVALID_REFRESH_TOKEN', 'SESSION_EXPIRED'], 403: ['USER_INACTIVE'] },
  },
  'POST /logout': {
    operationId: 'authLogout',
    summary: "End the caller's session",
    success: SUCCESS('The session ended.', 'clear'),
  },
  'GET /profile': {
    operationId: 'authProfile',
    summary: 'The signed-in user',
    success: { status: 200, schema: 'AuthUser', description: 'The user of the token.' },
  },
  'PUT /password': {
    operationId: 'authChangePassword',
    summary: 'Change the password',
    description: 'Every session of the user ends, this one too.',
    body: jsonBody('AuthPasswordChangeRequest'),
    success: SUCCESS('The password changed; sign in again.', 'clear'),
    errors: { 400: PASSWORD_ERRORS, 401: ['INVALID_CREDENTIALS'] },
  },
  'POST /reset': {
    operationId: 'authRequestPasswordReset',
    summary: 'Request a password reset',
    description:
      'The same answer for known and unknown emails; the token goes out by email or event.',
    body: jsonBody('AuthEmailRequest'),
    success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    rateLimited: true,
  },
  'POST /reset/confirm': {
    operationId: 'authConfirmPasswordReset',
    summary: 'Set a new password with a reset token',
    body: jsonBody('AuthResetConfirmRequest'),
    success: SUCCESS('The password changed; every session ended.'),
    errors: { 400: PASSWORD_ERRORS, 401: ['INVALID_TOKEN'] },
  },
  'GET /verify': {
    operationId: 'authVerifyEmail',
    summary: 'Verify an email address (the link of the verification email)',
    parameters: [
      {
        name: 'token',
        in: 'query',
        required: true,
        description: 'The verification token.',
        schema: { type: 'string', minLength: 1 },
      },
    ],
    success: SUCCESS('The email is verified.'),
    errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'] },
  },
  'POST /verify/resend': {
    operationId: 'authResendVerification',
    summary: 'Send the verification email again',
    description: 'Always answers 200 (no enumeration).',
    body: jsonBody('AuthEmailRequest'),
    success: SUCCESS('Requested.'),
    rateLimited: true,
  },
  'POST /mfa/totp/enroll': {
    operationId: 'authTotpEnroll',
    summary: 'Start TOTP enrolment',
    description: `A new secret, pending until confirmed; an earlier one (pending or confirmed) dies. ${SECOND_FACTOR_NOTE}`,
    body: jsonBody('AuthSecondFactorRequest', false),
    success: { status: 200, schema: 'AuthTotpEnrollment', description: 'Shown once.' },
    errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    rateLimited: true,
  },
  'POST /mfa/totp/confirm': {
    operationId: 'authTotpConfirm',
    summary: 'Confirm TOTP enrolment with a current code',
    body: jsonBody('AuthMfaCodeRequest'),
    success: SUCCESS('TOTP is on: sign-ins now answer an MFA challenge.'),
    errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], 401: ['INVALID_CREDENTIALS'] },
    rateLimited: true,
  },
  'POST /mfa/totp/disable': {
    operationId: 'authTotpDisable',
    summary: 'Turn TOTP off',
    description:
      '`code` is a current TOTP code or an unused recovery code (spent). From a session that has not proven the second factor (`aal1`), a missing or wrong code is 403 MFA_REQUIRED; from an `aal2` session, 400 VALIDATION_ERROR or 401 INVALID_CREDENTIALS. Nothing changes on a refusal.',
    body: jsonBody('AuthMfaCodeRequest'),
    success: SUCCESS('TOTP is off.'),
    errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    rateLimited: true,
  },
  'POST /mfa/totp/login': {
    operationId: 'authTotpLogin',
    summary: 'Answer an MFA challenge with a TOTP code',
    body: jsonBody('AuthMfaLoginRequest'),
    success: SESSION_ONLY('Signed in.'),
    errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    rateLimited: true,
  },
  'POST /mfa/recovery-codes/generate': {
    operationId: 'authRecoveryCodesGenerate',
    summary: 'A new batch of recovery codes',
    description: `Every earlier code dies. ${SECOND_FACTOR_NOTE}`,
    body: jsonBody('AuthSecondFactorRequest', false),
    success: { status: 200, schema: 'AuthRecoveryCodes', description: '8 codes, shown once.' },
    errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    rateLimited: true,
  },
  'POST /mfa/recovery-codes/login': {
    operationId: 'authRecoveryCodeLogin',
    summary: 'Answer an MFA challenge with a recovery code',
    body: jsonBody('AuthMfaLoginRequest'),
    success: SESSION_ONLY('Signed in; the code is spent.'),
    errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    rateLimited: true,
  },
  'POST /magic-link/request': {
    operationId: 'authMagicLinkRequest',
    summary: 'Email a sign-in link',
    description: 'The same answer for every email; the link never appears in a response.',
    body: jsonBody('AuthEmailRequest'),
    success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    rateLimited: true,
  },
  'POST /magic-link/consume': {
    operationId: 'authMagicLinkConsume',
    summary: 'Sign in with the token of a sign-in link',
    body: jsonBody('AuthMagicLinkConsumeRequest'),
    success: SIGN_IN,
    errors: { 401: ['INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    rateLimited: true,
  },
  'POST /magic-code/request': {
    operationId: 'authMagicCodeRequest',
    summary: 'Email a 6-digit sign-in code',
    description: 'The same answer for every email; a code lives 10 minutes and 5 wrong tries.',
    body: jsonBody('AuthEmailRequest'),
    success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    rateLimited: true,
  },
  'POST /magic-code/verify': {
    operationId: 'authMagicCodeVerify',
    summary: 'Sign in with an emailed code',
    body: jsonBody('AuthMagicCodeVerifyRequest'),
    success: SIGN_IN,
    errors: { 401: ['INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    rateLimited: true,
  },
  'POST /webauthn/register/begin': {
    operationId: 'authWebAuthnRegisterBegin',
    summary: 'Start registering a passkey',
    description: `${SECOND_FACTOR_NOTE} A ceremony begun so needs no second proof at its finish.`,
    body: jsonBody('AuthSecondFactorRequest', false),
    success: {
      status: 200,
      schema: 'AuthWebAuthnRegistrationBegin',
      description: 'Options for navigator.credentials.create.',
    },
    errors: SECOND_FACTOR_ERRORS,
    rateLimited: true,
  },
  'POST /webauthn/register/finish': {
    operationId: 'authWebAuthnRegisterFinish',
    summary: 'Store the new passkey',
    description:
      'For a user with confirmed TOTP whose begin did not prove the second factor: an `aal2` session or `code`; otherwise 403 MFA_REQUIRED and nothing is stored.',
    body: jsonBody('AuthWebAuthnRegisterFinishRequest'),
    success: { status: 200, schema: 'AuthWebAuthnRegistered', description: 'Registered.' },
    errors: { ...SECOND_FACTOR_ERRORS, 401: ['INVALID_TOKEN', 'INVALID_CREDENTIALS'] },
    rateLimited: true,
  },
  'POST /webauthn/login/begin': {
    operationId: 'authWebAuthnLoginBegin',
    summary: 'Start a passkey sign-in',
    description: 'An unknown email answers the same shape (no enumeration).',
    body: jsonBody('AuthWebAuthnLoginBeginRequest', false),
    success: {
      status: 200,
      schema: 'AuthWebAuthnLoginBegin',
      description: 'Options for navigator.credentials.get.',
    },
    rateLimited: true,
  },
  'POST /webauthn/login/finish': {
    operationId: 'authWebAuthnLoginFinish',
    summary: 'Sign in with a passkey assertion',
    description: 'Without user verification (UV) a user with TOTP still gets the MFA challenge.',
    body: jsonBody('AuthWebAuthnLoginFinishRequest'),
    success: SIGN_IN,
    errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: SIGN_IN_REFUSED },
    rateLimited: true,
  },
  'GET /webauthn/credentials': {
    operationId: 'authWebAuthnCredentials',
    summary: "The caller's passkeys",
    success: { status: 200, schema: 'AuthWebAuthnCredentialList', description: 'The passkeys.' },
  },
  'POST /webauthn/credentials/delete': {
    operationId: 'authWebAuthnCredentialDelete',
    summary: "Delete one of the caller's passkeys",
    description: SECOND_FACTOR_NOTE,
    body: jsonBody('AuthCredentialDeleteRequest'),
    success: SUCCESS('Deleted.'),
    errors: { 404: ['NOT_FOUND'], ...SECOND_FACTOR_ERRORS },
    rateLimited: true,
  },
  'POST /anonymous': {
    operationId: 'authAnonymous',
    summary: 'Sign in as a new guest',
    description: "The guest's email is `<uuid>@anonymous.invalid`; /auth/upgrade keeps its id.",
    body: jsonBody('AuthAnonymousRequest', false),
    success: SESSION_ONLY('The new guest and its session.', 201),
    errors: { 403: ['REGISTRATION_DISABLED'] },
    rateLimited: true,
  },
  'POST /upgrade': {
    operationId: 'authUpgrade',
    summary: "Give the caller's guest account an email and password",
    description: 'Same user id; every earlier session ends and a new one is issued.',
    body: jsonBody('AuthUpgradeRequest'),
    success: SIGN_IN,
    errors: {
      400: [...PASSWORD_ERRORS, 'INVALID_OPERATION'],
      409: ['USER_ALREADY_EXISTS'],
    },
  },
  'GET /sessions': {
    operationId: 'authSessions',
    summary: "The caller's live sessions",
    success: { status: 200, schema: 'AuthSessionList', description: 'Most recently active first.' },
  },
  'DELETE /sessions/:id': {
    operationId: 'authSessionRevoke',
    summary: "End one of the caller's sessions",
    description: "Another user's session id answers 404, as an unknown one does.",
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The session id (GET /auth/sessions).',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    success: SUCCESS('Ended (the cookie is cleared when it was the current session).', 'clear'),
    errors: { 400: ['VALIDATION_ERROR'], 404: ['NOT_FOUND'] },
  },
  'POST /sessions/revoke-others': {
    operationId: 'authSessionsRevokeOthers',
    summary: 'End every session of the caller but this one',
    success: { status: 200, schema: 'AuthRevokedCount', description: 'How many ended.' },
  },
  'GET /oauth/:provider/authorize': {
    operationId: 'authOAuthAuthorize',
    summary: 'Start an OAuth / OpenID Connect sign-in (browser)',
    parameters: [
      PROVIDER,
      {
        name: 'redirectUri',
        in: 'query',
        required: true,
        description: 'Where the callback sends the browser back: one of `oauth.redirectUris`.',
        schema: { type: 'string' },
      },
      {
        name: 'codeChallenge',
        in: 'query',
        required: false,
        description:
          'PKCE S256 challenge of the application (then /auth/oauth/token needs the verifier).',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      },
      {
        name: 'codeChallengeMethod',
        in: 'query',
        required: false,
        description: 'Only `S256`.',
        schema: { const: 'S256' },
      },
    ],
    success: { status: 302, description: "To the provider's authorization page." },
    errors: { 400: ['VALIDATION_ERROR'], ...OAUTH_PROVIDER_ERRORS },
    rateLimited: true,
  },
  'GET /oauth/:provider/callback': {
    operationId: 'authOAuthCallback',
    summary: 'The provider sends the browser back here',
    description:
      'Redirects to the redirectUri with `code` (for /auth/oauth/token), or with `error` and `error_description` when the sign-in failed.',
    parameters: [
      PROVIDER,
      {
        name: 'state',
        in: 'query',
        required: false,
        description: 'As sent.',
        schema: { type: 'string' },
      },
      {
        name: 'code',
        in: 'query',
        required: false,
        description: "The provider's code.",
        schema: { type: 'string' },
      },
      {
        name: 'error',
        in: 'query',
        required: false,
        description: "The provider's refusal.",
        schema: { type: 'string' },
      },
    ],
    success: { status: 302, description: 'To the application (redirectUri).' },
    errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'], 404: ['NOT_FOUND'] },
  },
  'POST /oauth/:provider/callback': {
    operationId: 'authOAuthCallbackFormPost',
    summary: 'The provider posts the browser back here (response_mode=form_post)',
    parameters: [PROVIDER],
    form: 'AuthOAuthCallbackForm',
    success: { status: 303, description: 'To the application (redirectUri).' },
    errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'], 404: ['NOT_FOUND'] },
  },
  'POST /oauth/token': {
    operationId: 'authOAuthToken',
    summary: 'Exchange the callback code for a session',
    body: jsonBody('AuthOAuthTokenRequest'),
    success: SIGN_IN,
    errors: { 401: ['INVALID_TOKEN'], 403: SIGN_IN_REFUSED },
    rateLimited: true,
  },
};
