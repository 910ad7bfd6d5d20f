/**
 * The MFA routes: TOTP enrolment and its removal, recovery codes, and the two answers to a
 * sign-in's MFA challenge. The operations validate `code` and `challengeToken`. Enroll and
 * generate take an optional body: `code`, when a confirmed factor is managed from an `aal1`
 * session.
 */
import { defineRoute } from '../routes/define';
import {
  OK,
  SECOND_FACTOR_ERRORS,
  SECOND_FACTOR_NOTE,
  sessionOnly,
  succeeded,
} from '../routes/responses';

export const MFA_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/mfa/totp/enroll',
    access: 'auth',
    feature: 'mfa',
    rateLimited: true,
    doc: {
      operationId: 'authTotpEnroll',
      summary: 'Start TOTP enrolment',
      description: `A new secret, pending until confirmed; an earlier one (pending or confirmed) dies. ${SECOND_FACTOR_NOTE}`,
    },
    body: { schema: 'AuthSecondFactorRequest', required: false },
    responses: {
      success: { status: 200, schema: 'AuthTotpEnrollment', description: 'Shown once.' },
      errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    },
    run: async (auth, call) => {
      const { code } = await call.body();
      return {
        status: 200,
        body: await auth.mfa.enrollTotp(call.token, code as string, call.info),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/totp/confirm',
    access: 'auth',
    feature: 'mfa',
    rateLimited: true,
    doc: { operationId: 'authTotpConfirm', summary: 'Confirm TOTP enrolment with a current code' },
    body: 'AuthMfaCodeRequest',
    responses: {
      success: succeeded('TOTP is on: sign-ins now answer an MFA challenge.'),
      errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], 401: ['INVALID_CREDENTIALS'] },
    },
    run: async (auth, call) => {
      const { code } = await call.body();
      await auth.mfa.confirmTotp(call.token, code as string, call.info);
      return { status: 200, body: OK };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/totp/disable',
    access: 'auth',
    feature: 'mfa',
    rateLimited: true,
    doc: {
      operationId: 'authTotpDisable',
      summary: 'Turn TOTP off',
      description:
        '`code` is a current TOTP code or an unused recovery code (spent). From a session that has not proven the second factor (`aal1`), a missing or wrong code is 403 MFA_REQUIRED; from an `aal2` session, 400 VALIDATION_ERROR or 401 INVALID_CREDENTIALS. Nothing changes on a refusal.',
    },
    body: 'AuthMfaCodeRequest',
    responses: {
      success: succeeded('TOTP is off.'),
      errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    },
    run: async (auth, call) => {
      const { code } = await call.body();
      await auth.mfa.disableTotp(call.token, code as string, call.info);
      return { status: 200, body: OK };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/totp/login',
    access: 'public',
    feature: 'mfa',
    rateLimited: true,
    doc: { operationId: 'authTotpLogin', summary: 'Answer an MFA challenge with a TOTP code' },
    body: 'AuthMfaLoginRequest',
    responses: {
      success: sessionOnly('Signed in.'),
      errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    },
    run: async (auth, call) => {
      const { challengeToken, code } = await call.body();
      const result = await auth.mfa.totpLogin(challengeToken as string, code as string, call.info);
      return { status: 200, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/recovery-codes/generate',
    access: 'auth',
    feature: 'mfa',
    rateLimited: true,
    doc: {
      operationId: 'authRecoveryCodesGenerate',
      summary: 'A new batch of recovery codes',
      description: `Every earlier code dies. ${SECOND_FACTOR_NOTE}`,
    },
    body: { schema: 'AuthSecondFactorRequest', required: false },
    responses: {
      success: { status: 200, schema: 'AuthRecoveryCodes', description: '8 codes, shown once.' },
      errors: { 400: ['VALIDATION_ERROR', 'INVALID_OPERATION'], ...SECOND_FACTOR_ERRORS },
    },
    run: async (auth, call) => {
      const { code } = await call.body();
      return {
        status: 200,
        body: await auth.mfa.generateRecoveryCodes(call.token, code as string, call.info),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mfa/recovery-codes/login',
    access: 'public',
    feature: 'mfa',
    rateLimited: true,
    doc: {
      operationId: 'authRecoveryCodeLogin',
      summary: 'Answer an MFA challenge with a recovery code',
    },
    body: 'AuthMfaLoginRequest',
    responses: {
      success: sessionOnly('Signed in; the code is spent.'),
      errors: { 401: ['INVALID_CREDENTIALS', 'INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    },
    run: async (auth, call) => {
      const { challengeToken, code } = await call.body();
      const result = await auth.mfa.recoveryCodeLogin(
        challengeToken as string,
        code as string,
        call.info,
      );
      return { status: 200, body: result, session: result };
    },
  }),
];
