/**
 * The account routes: registration, password sign-in, refresh, logout, profile, password change
 * and reset, email verification.
 *
 * Fields go to the operation as they came: each is validated once, by the operation's validator
 * (`account/`, `password/`), over HTTP as through the plain function. The routes check only what
 * HTTP adds: a JSON object body, and the presence of the fields whose operation answers a missing
 * one otherwise (a missing token would be a 401 of the token, a missing reset or resend email a
 * silent 200).
 */
import { commonError } from '@svc/core';
import { requiredString } from '../http/body';
import { defineRoute } from '../routes/define';
import {
  OK,
  PASSWORD_ERRORS,
  PASSWORDS_BUSY,
  SIGN_IN,
  SIGN_IN_REFUSED,
  sessionOnly,
  succeeded,
} from '../routes/responses';
import type { LoginInput, RegisterInput } from '../types';

export const ACCOUNT_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/register',
    access: 'public',
    feature: 'account',
    captcha: 'register',
    doc: { operationId: 'authRegister', summary: 'Create an account and sign in' },
    body: 'AuthRegisterRequest',
    responses: {
      success: sessionOnly('The new account and its first session.', 201),
      errors: {
        400: PASSWORD_ERRORS,
        403: ['REGISTRATION_DISABLED'],
        409: ['USER_ALREADY_EXISTS'],
        ...PASSWORDS_BUSY,
      },
    },
    run: async (auth, call) => {
      const { email, password, username, metadata } = await call.body();
      const result = await auth.register(
        { email, password, username, metadata } as RegisterInput,
        call.info,
      );
      return { status: 201, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/login',
    access: 'public',
    feature: 'account',
    captcha: 'login',
    rateLimited: true,
    doc: { operationId: 'authLogin', summary: 'Sign in with a password' },
    body: 'AuthLoginRequest',
    responses: {
      success: SIGN_IN,
      errors: { 401: ['INVALID_CREDENTIALS'], 403: SIGN_IN_REFUSED, ...PASSWORDS_BUSY },
    },
    run: async (auth, call) => {
      const { email, username, password } = await call.body();
      const result = await auth.login({ email, username, password } as LoginInput, call.info);
      return { status: 200, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/refresh',
    access: 'public',
    feature: 'account',
    doc: {
      operationId: 'authRefresh',
      summary: 'Exchange a refresh token for a new session',
      description: 'The refresh token is single use: the old session ends.',
    },
    body: 'AuthRefreshRequest',
    responses: {
      success: sessionOnly('The rotated session.'),
      errors: { 401: ['INVALID_REFRESH_TOKEN', 'SESSION_EXPIRED'], 403: ['USER_INACTIVE'] },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.refresh(requiredString(body, 'refreshToken'), call.info);
      return { status: 200, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/logout',
    access: 'auth',
    feature: 'account',
    doc: { operationId: 'authLogout', summary: "End the caller's session" },
    responses: { success: succeeded('The session ended.', 'clear') },
    run: async (auth, call) => {
      await auth.logout(call.token);
      return { status: 200, body: OK, session: 'clear' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/profile',
    access: 'auth',
    feature: 'account',
    // auth.profile reads the session with the user (one statement) and judges it.
    judgesSession: true,
    doc: { operationId: 'authProfile', summary: 'The signed-in user' },
    responses: {
      success: { status: 200, schema: 'AuthUser', description: 'The user of the token.' },
    },
    run: async (auth, call) => ({ status: 200, body: await auth.profile(call.token) }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/password',
    access: 'auth',
    feature: 'account',
    doc: {
      operationId: 'authChangePassword',
      summary: 'Change the password',
      description: 'Every session of the user ends, this one too.',
    },
    body: 'AuthPasswordChangeRequest',
    responses: {
      success: succeeded('The password changed; sign in again.', 'clear'),
      errors: { 400: PASSWORD_ERRORS, 401: ['INVALID_CREDENTIALS'], ...PASSWORDS_BUSY },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.changePassword(
        call.token,
        body.old_password as string,
        body.new_password as string,
      );
      return { status: 200, body: OK, session: 'clear' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/reset',
    access: 'public',
    feature: 'account',
    captcha: 'passwordReset',
    rateLimited: true,
    doc: {
      operationId: 'authRequestPasswordReset',
      summary: 'Request a password reset',
      description:
        'The same answer for known and unknown emails; the token goes out by email or event.',
    },
    body: 'AuthEmailRequest',
    responses: {
      success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.requestReset(requiredString(body, 'email'), call.info);
      return {
        status: 200,
        body: {
          message: 'If an account exists for that email, a password reset link has been sent.',
          success: true,
        },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/reset/confirm',
    access: 'public',
    feature: 'account',
    doc: {
      operationId: 'authConfirmPasswordReset',
      summary: 'Set a new password with a reset token',
    },
    body: 'AuthResetConfirmRequest',
    responses: {
      success: succeeded('The password changed; every session ended.'),
      errors: { 400: PASSWORD_ERRORS, 401: ['INVALID_TOKEN'], ...PASSWORDS_BUSY },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.confirmReset(requiredString(body, 'reset_token'), body.new_password as string);
      return { status: 200, body: OK };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/verify',
    access: 'public',
    feature: 'account',
    spends: true,
    doc: {
      operationId: 'authVerifyEmail',
      summary: 'Verify an email address (the link of the verification email)',
    },
    parameters: [
      {
        name: 'token',
        in: 'query',
        required: true,
        description: 'The verification token.',
        schema: { type: 'string', minLength: 1 },
      },
    ],
    responses: {
      success: succeeded('The email is verified.'),
      errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'] },
    },
    run: async (auth, call) => {
      const token = call.url.searchParams.get('token');
      if (!token) throw commonError('VALIDATION_ERROR', 'query parameter "token" is required');
      await auth.verifyEmail(token);
      return { status: 200, body: OK };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/verify/resend',
    access: 'public',
    feature: 'account',
    captcha: 'verificationResend',
    rateLimited: true,
    doc: {
      operationId: 'authResendVerification',
      summary: 'Send the verification email again',
      description: 'Always answers 200 (no enumeration).',
    },
    body: 'AuthEmailRequest',
    responses: { success: succeeded('Requested.') },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.resendVerification(requiredString(body, 'email'), call.info);
      return { status: 200, body: OK };
    },
  }),
];
