/**
 * The passkey (WebAuthn) routes: registering a passkey, signing in with one, listing and deleting
 * them. Bodies go to the operations, which validate them. A body is optional on register/begin:
 * it carries `code` only when a second factor is owed. Without `webauthn` configured the routes
 * still exist and answer 400 INVALID_OPERATION.
 */
import { requiredString } from '../http/body';
import { defineRoute } from '../routes/define';
import {
  OK,
  SECOND_FACTOR_ERRORS,
  SECOND_FACTOR_NOTE,
  SIGN_IN,
  SIGN_IN_REFUSED,
  succeeded,
} from '../routes/responses';
import type { WebAuthnLoginFinishInput, WebAuthnRegisterFinishInput } from './operations';

export const WEBAUTHN_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/webauthn/register/begin',
    access: 'auth',
    feature: 'webauthn',
    rateLimited: true,
    doc: {
      operationId: 'authWebAuthnRegisterBegin',
      summary: 'Start registering a passkey',
      description: `${SECOND_FACTOR_NOTE} A ceremony begun so needs no second proof at its finish.`,
    },
    body: { schema: 'AuthSecondFactorRequest', required: false },
    responses: {
      success: {
        status: 200,
        schema: 'AuthWebAuthnRegistrationBegin',
        description: 'Options for navigator.credentials.create.',
      },
      errors: SECOND_FACTOR_ERRORS,
    },
    run: async (auth, call) => {
      const { code } = await call.body();
      return {
        status: 200,
        body: await auth.webauthn.registerBegin(call.token, code as string, call.info),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/webauthn/register/finish',
    access: 'auth',
    feature: 'webauthn',
    rateLimited: true,
    doc: {
      operationId: 'authWebAuthnRegisterFinish',
      summary: 'Store the new passkey',
      description:
        'For a user with confirmed TOTP whose begin did not prove the second factor: an `aal2` session or `code`; otherwise 403 MFA_REQUIRED and nothing is stored.',
    },
    body: 'AuthWebAuthnRegisterFinishRequest',
    responses: {
      success: { status: 200, schema: 'AuthWebAuthnRegistered', description: 'Registered.' },
      errors: { ...SECOND_FACTOR_ERRORS, 401: ['INVALID_TOKEN', 'INVALID_CREDENTIALS'] },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.webauthn.registerFinish(
        call.token,
        body as unknown as WebAuthnRegisterFinishInput,
        call.info,
      );
      return { status: 200, body: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/webauthn/login/begin',
    access: 'public',
    feature: 'webauthn',
    captcha: 'webauthnLogin',
    rateLimited: true,
    doc: {
      operationId: 'authWebAuthnLoginBegin',
      summary: 'Start a passkey sign-in',
      description: 'An unknown email answers the same shape (no enumeration).',
    },
    body: { schema: 'AuthWebAuthnLoginBeginRequest', required: false },
    responses: {
      success: {
        status: 200,
        schema: 'AuthWebAuthnLoginBegin',
        description: 'Options for navigator.credentials.get.',
      },
    },
    run: async (auth, call) => {
      const { email } = await call.body();
      return {
        status: 200,
        body: await auth.webauthn.loginBegin({ email: email as string | undefined }, call.info),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/webauthn/login/finish',
    access: 'public',
    feature: 'webauthn',
    rateLimited: true,
    doc: {
      operationId: 'authWebAuthnLoginFinish',
      summary: 'Sign in with a passkey assertion',
      description: 'Without user verification (UV) a user with TOTP still gets the MFA challenge.',
    },
    body: 'AuthWebAuthnLoginFinishRequest',
    responses: {
      success: SIGN_IN,
      errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: SIGN_IN_REFUSED },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.webauthn.loginFinish(
        body as unknown as WebAuthnLoginFinishInput,
        call.info,
      );
      return { status: 200, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/webauthn/credentials',
    access: 'auth',
    feature: 'webauthn',
    doc: { operationId: 'authWebAuthnCredentials', summary: "The caller's passkeys" },
    responses: {
      success: { status: 200, schema: 'AuthWebAuthnCredentialList', description: 'The passkeys.' },
    },
    run: async (auth, call) => ({
      status: 200,
      body: await auth.webauthn.listCredentials(call.token),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/webauthn/credentials/delete',
    access: 'auth',
    feature: 'webauthn',
    rateLimited: true,
    doc: {
      operationId: 'authWebAuthnCredentialDelete',
      summary: "Delete one of the caller's passkeys",
      description: SECOND_FACTOR_NOTE,
    },
    body: 'AuthCredentialDeleteRequest',
    responses: {
      success: succeeded('Deleted.'),
      errors: { 404: ['NOT_FOUND'], ...SECOND_FACTOR_ERRORS },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.webauthn.deleteCredential(
        call.token,
        requiredString(body, 'credentialId'),
        body.code as string,
        call.info,
      );
      return { status: 200, body: OK };
    },
  }),
];
