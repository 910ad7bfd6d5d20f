/**
 * The passwordless routes: sign-in links and six-digit codes sent by email. A request answers
 * the same for every email, and the secret never appears in a response.
 */
import { requiredString } from '../http/body';
import { defineRoute } from '../routes/define';
import { SIGN_IN } from '../routes/responses';

export const MAGIC_LINK_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/magic-link/request',
    access: 'public',
    feature: 'magic-link',
    captcha: 'magicLink',
    rateLimited: true,
    doc: {
      operationId: 'authMagicLinkRequest',
      summary: 'Email a sign-in link',
      description: 'The same answer for every email; the link never appears in a response.',
    },
    body: 'AuthEmailRequest',
    responses: {
      success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.requestMagicLink(requiredString(body, 'email'), call.info);
      return {
        status: 200,
        body: {
          success: true,
          message: 'If that email can sign in, a sign-in link has been sent to it.',
        },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/magic-link/consume',
    access: 'public',
    feature: 'magic-link',
    rateLimited: true,
    doc: {
      operationId: 'authMagicLinkConsume',
      summary: 'Sign in with the token of a sign-in link',
    },
    body: 'AuthMagicLinkConsumeRequest',
    responses: {
      success: SIGN_IN,
      errors: { 401: ['INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.consumeMagicLink(requiredString(body, 'token'), call.info);
      return { status: 200, body: result, session: result };
    },
  }),
];

export const MAGIC_CODE_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/magic-code/request',
    access: 'public',
    feature: 'magic-code',
    captcha: 'magicCode',
    rateLimited: true,
    doc: {
      operationId: 'authMagicCodeRequest',
      summary: 'Email a 6-digit sign-in code',
      description: 'The same answer for every email; a code lives 10 minutes and 5 wrong tries.',
    },
    body: 'AuthEmailRequest',
    responses: {
      success: { status: 200, schema: 'AuthSuccessMessage', description: 'Requested.' },
    },
    run: async (auth, call) => {
      const body = await call.body();
      await auth.requestMagicCode(requiredString(body, 'email'), call.info);
      return {
        status: 200,
        body: {
          success: true,
          message: 'If that email can sign in, a sign-in code has been sent to it.',
        },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/magic-code/verify',
    access: 'public',
    feature: 'magic-code',
    rateLimited: true,
    doc: { operationId: 'authMagicCodeVerify', summary: 'Sign in with an emailed code' },
    body: 'AuthMagicCodeVerifyRequest',
    responses: {
      success: SIGN_IN,
      errors: { 401: ['INVALID_TOKEN'], 403: ['USER_INACTIVE'] },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.verifyMagicCode(
        requiredString(body, 'email'),
        requiredString(body, 'code'),
        call.info,
      );
      return { status: 200, body: result, session: result };
    },
  }),
];
