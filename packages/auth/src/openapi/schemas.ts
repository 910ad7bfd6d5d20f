/**
 * The component schemas of the `/auth/*` routes (JSON Schema 2020-12, as OpenAPI 3.1 embeds it).
 * Each mirrors one type of `../types.ts` or `../webauthn/operations.ts`, field for field: answers
 * are closed (`additionalProperties: false`, so a field the handler starts sending fails the
 * fragment's test until it is documented); request bodies are open, because the handler reads
 * the fields it needs and ignores the others.
 *
 * Names start with `Auth` so they cannot clash with the data types the REST document names after
 * the schema; `Error` is the one envelope of every surface (docs/http.md, "The error
 * envelope"), @svc/core's `ERROR_ENVELOPE_SCHEMA`, which the REST document uses too.
 */
import { ERROR_ENVELOPE_SCHEMA } from '@svc/core';

export type JsonSchema = { readonly [keyword: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const str = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...extra,
  ...(description ? { description } : {}),
});
const nonEmpty = (description?: string, extra: JsonSchema = {}): JsonSchema =>
  str(description, { minLength: 1, ...extra });
const dateTime = (description?: string): JsonSchema => str(description, { format: 'date-time' });
const uuid = (description?: string): JsonSchema => str(description, { format: 'uuid' });
/** Binary values travel as unpadded base64url (the passkey routes of docs/http.md). */
const base64url = (description: string): JsonSchema =>
  str(description, { minLength: 1, pattern: '^[A-Za-z0-9_-]+$' });

/** A closed object: every listed property, `optional` ones excepted, is required. */
function closed(
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** An open request body: `required` must be present; other fields are ignored by the handler. */
function body(
  properties: Record<string, JsonSchema>,
  required: readonly string[],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(required.length ? { required } : {}),
  };
}

/** The error envelope (docs/http.md): core's one description of it, as in the REST document. */
export const ERROR_SCHEMA: JsonSchema = ERROR_ENVELOPE_SCHEMA;

/** A 6-digit TOTP code or a recovery code (`XXXXX-XXXXX`), as the MFA routes read `code`. */
const MFA_CODE = nonEmpty('The code as typed (spaces and dashes are ignored).', { maxLength: 64 });
/** `code` where it proves the second factor again (issue 26): read only when one is owed. */
const SECOND_FACTOR_CODE = nonEmpty(
  'Needed when the user has confirmed TOTP and the session is `aal1`: a current TOTP code or an unused recovery code, spent. Not read otherwise.',
  { maxLength: 64 },
);

const credentialDescriptor = closed({
  type: { const: 'public-key' },
  id: base64url('The credential id.'),
});

/** Every component schema of the fragment, by name. */
const SCHEMAS = {
  Error: ERROR_SCHEMA,

  // --- answers ------------------------------------------------------------------------------
  AuthUser: closed(
    {
      id: uuid(),
      email: str(),
      username: str(),
      emailVerified: { type: 'boolean' },
      active: { type: 'boolean' },
      metadata: { type: 'object', description: 'Free JSON the application keeps on the user.' },
      createdAt: dateTime(),
      updatedAt: dateTime(),
    },
    ['username'],
    'The spec\'s "User object"; `username` only when one is set.',
  ),
  AuthSession: closed({
    id: uuid(),
    userId: uuid(),
    token: str('The access token (a JWT).'),
    refreshToken: str(),
    createdAt: dateTime(),
    expiresAt: dateTime('When the refresh token dies.'),
  }),
  AuthResult: closed(
    {
      token: str('The access token: send it as `Authorization: Bearer <token>`.'),
      refreshToken: str('Exchanged at POST /auth/refresh for a new pair (single use).'),
      session: ref('AuthSession'),
      user: ref('AuthUser'),
    },
    [],
    'A signed-in session.',
  ),
  AuthMfaChallenge: closed(
    {
      mfaRequired: { const: true },
      challengeToken: str('Goes to /auth/mfa/totp/login or /auth/mfa/recovery-codes/login.'),
      methods: {
        type: 'array',
        items: { enum: ['totp', 'recovery_code'] },
        minItems: 1,
        uniqueItems: true,
      },
      expiresAt: dateTime('5 minutes after the sign-in.'),
    },
    [],
    'The user owes a second factor: no session yet.',
  ),
  AuthSignInResult: {
    description: 'A session, or the MFA challenge it waits behind.',
    oneOf: [ref('AuthResult'), ref('AuthMfaChallenge')],
  },
  AuthSuccess: closed({ success: { const: true } }),
  AuthSuccessMessage: closed(
    { success: { const: true }, message: str() },
    [],
    'The same answer whether or not the email has an account.',
  ),
  AuthTotpEnrollment: closed({
    secret: str('RFC 4648 base32, no padding.', { pattern: '^[A-Z2-7]+$' }),
    otpauthUri: str('For an authenticator app (QR code).', { pattern: '^otpauth://totp/' }),
  }),
  AuthRecoveryCodes: closed({
    codes: {
      type: 'array',
      description: 'Shown this once; every earlier code dies.',
      items: str(undefined, {
        pattern: '^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{5}-[ABCDEFGHJKMNPQRSTVWXYZ2-9]{5}$',
      }),
      minItems: 8,
      maxItems: 8,
    },
  }),
  AuthSessionInfo: closed({
    id: uuid(),
    createdAt: dateTime(),
    lastActivityAt: dateTime(),
    expiresAt: dateTime("When the session's refresh token dies."),
    ip: { type: ['string', 'null'] },
    userAgent: { type: ['string', 'null'] },
    device: {
      type: ['string', 'null'],
      description: 'Read from the user agent ("Firefox on Linux").',
    },
    current: { type: 'boolean', description: 'The session of the token that asked.' },
  }),
  AuthSessionList: closed({
    sessions: {
      type: 'array',
      description: 'The live sessions, most recently active first.',
      items: ref('AuthSessionInfo'),
    },
  }),
  AuthRevokedCount: closed({
    revoked: { type: 'integer', minimum: 0, description: 'How many sessions ended.' },
  }),
  AuthCredentialDescriptor: credentialDescriptor,
  AuthWebAuthnCreationOptions: closed(
    {
      rp: closed({ id: str(), name: str() }),
      user: closed({ id: base64url('The user handle.'), name: str(), displayName: str() }),
      challenge: base64url('32 random bytes.'),
      pubKeyCredParams: {
        type: 'array',
        items: closed({ type: { const: 'public-key' }, alg: { const: -7 } }),
      },
      timeout: { type: 'integer', minimum: 1 },
      attestation: { const: 'none' },
      excludeCredentials: { type: 'array', items: ref('AuthCredentialDescriptor') },
      authenticatorSelection: closed(
        {
          residentKey: { enum: ['preferred', 'required'] },
          requireResidentKey: { const: true },
          userVerification: { const: 'preferred' },
        },
        ['requireResidentKey'],
      ),
    },
    [],
    'PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create.',
  ),
  AuthWebAuthnRequestOptions: closed(
    {
      rpId: str(),
      challenge: base64url('32 random bytes.'),
      timeout: { type: 'integer', minimum: 1 },
      userVerification: { const: 'preferred' },
      allowCredentials: { type: 'array', items: ref('AuthCredentialDescriptor') },
    },
    [],
    'PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get.',
  ),
  AuthWebAuthnRegistrationBegin: closed({
    challengeId: str('Names the ceremony at register/finish (lives 5 minutes).'),
    options: ref('AuthWebAuthnCreationOptions'),
  }),
  AuthWebAuthnLoginBegin: closed({
    challengeId: str('Names the ceremony at login/finish (lives 5 minutes).'),
    options: ref('AuthWebAuthnRequestOptions'),
  }),
  AuthWebAuthnRegistered: closed({
    credential: closed({ id: base64url('The credential id.'), name: str(), createdAt: dateTime() }),
  }),
  AuthWebAuthnCredentialList: closed({
    credentials: {
      type: 'array',
      items: closed({
        id: base64url('The credential id.'),
        name: str(),
        createdAt: dateTime(),
        lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      }),
    },
  }),

  // --- request bodies -----------------------------------------------------------------------
  AuthRegisterRequest: body(
    {
      email: nonEmpty('An email address (stored NFKC, lower-cased).'),
      password: nonEmpty('Checked against the password policy (PASSWORD_TOO_WEAK).'),
      username: {
        type: ['string', 'null'],
        description: '3 to 30 letters, digits, `_`, `.` or `-` (after NFKC).',
      },
      metadata: { type: ['object', 'null'], description: 'Any JSON object (size-limited).' },
    },
    ['email', 'password'],
  ),
  AuthLoginRequest: {
    description: 'By `email`; when `email` is absent or null, by `username`.',
    anyOf: [
      body({ email: nonEmpty(undefined, { maxLength: 320 }), password: nonEmpty() }, [
        'email',
        'password',
      ]),
      body(
        {
          email: { type: 'null' },
          username: nonEmpty(undefined, { maxLength: 320 }),
          password: nonEmpty(),
        },
        ['username', 'password'],
      ),
    ],
  },
  AuthRefreshRequest: body({ refreshToken: nonEmpty() }, ['refreshToken']),
  AuthPasswordChangeRequest: body(
    { old_password: nonEmpty(), new_password: nonEmpty('Checked against the password policy.') },
    ['old_password', 'new_password'],
  ),
  AuthEmailRequest: body({ email: nonEmpty() }, ['email']),
  AuthResetConfirmRequest: body(
    {
      reset_token: nonEmpty('The token of the PasswordResetRequested event or email.'),
      new_password: nonEmpty('Checked against the password policy.'),
    },
    ['reset_token', 'new_password'],
  ),
  AuthMfaCodeRequest: body({ code: MFA_CODE }, ['code']),
  AuthSecondFactorRequest: body({ code: SECOND_FACTOR_CODE }, []),
  AuthMfaLoginRequest: body(
    { challengeToken: nonEmpty('From the MFA challenge.'), code: MFA_CODE },
    ['challengeToken', 'code'],
  ),
  AuthMagicLinkConsumeRequest: body({ token: nonEmpty() }, ['token']),
  AuthMagicCodeVerifyRequest: body(
    {
      email: nonEmpty(),
      code: nonEmpty('Six digits; spaces and dashes between them are ignored.'),
    },
    ['email', 'code'],
  ),
  AuthWebAuthnRegisterFinishRequest: body(
    {
      challengeId: nonEmpty(),
      credentialId: base64url('The new credential id.'),
      clientDataJSON: base64url('The client data.'),
      attestationObject: base64url('The attestation object.'),
      name: {
        type: ['string', 'null'],
        description: 'Shown in the credential list: 1 to 100 characters (default "Passkey").',
      },
      code: SECOND_FACTOR_CODE,
    },
    ['challengeId', 'credentialId', 'clientDataJSON', 'attestationObject'],
  ),
  AuthWebAuthnLoginBeginRequest: body(
    {
      email: {
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 320,
        description: "Scopes the sign-in to that user's passkeys; absent: any discoverable one.",
      },
    },
    [],
  ),
  AuthWebAuthnLoginFinishRequest: body(
    {
      challengeId: nonEmpty(),
      credentialId: base64url('The credential id.'),
      clientDataJSON: base64url('The client data.'),
      authenticatorData: base64url('The authenticator data.'),
      signature: base64url('The assertion signature.'),
      userHandle: {
        type: ['string', 'null'],
        pattern: '^[A-Za-z0-9_-]*$',
        description: 'The user handle a discoverable credential returns (base64url).',
      },
    },
    ['challengeId', 'credentialId', 'clientDataJSON', 'authenticatorData', 'signature'],
  ),
  AuthCredentialDeleteRequest: body({ credentialId: nonEmpty(), code: SECOND_FACTOR_CODE }, [
    'credentialId',
  ]),
  AuthAnonymousRequest: body(
    {},
    [],
    'No fields are read (a captcha-gated server reads `captchaToken`).',
  ),
  AuthUpgradeRequest: body(
    { email: nonEmpty(), password: nonEmpty('Checked against the password policy.') },
    ['email', 'password'],
  ),
  AuthOAuthCallbackForm: body(
    {
      state: str('The state svc sent to the provider.'),
      code: str("The provider's authorization code."),
      error: str("The provider's error, when it refused."),
    },
    [],
  ),
  AuthOAuthTokenRequest: body(
    {
      code: nonEmpty('The one-time code the callback redirect carried (lives 2 minutes).'),
      codeVerifier: {
        type: ['string', 'null'],
        pattern: '^[A-Za-z0-9._~-]{43,128}$',
        description: 'The PKCE verifier, when authorize was given a codeChallenge.',
      },
    },
    ['code'],
  ),
} satisfies Record<string, JsonSchema>;

/** A component schema's name: what a route declaration names as its body or answer. */
export type AuthSchemaName = keyof typeof SCHEMAS;
export const AUTH_SCHEMAS: Readonly<Record<string, JsonSchema>> = SCHEMAS;
