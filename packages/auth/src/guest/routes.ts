/** The guest routes: signing in as a new anonymous account, and giving it an email and password. */
import { defineRoute } from '../routes/define';
import { PASSWORD_ERRORS, PASSWORDS_BUSY, SIGN_IN, sessionOnly } from '../routes/responses';

export const GUEST_ROUTES = [
  defineRoute({
    method: 'POST',
    path: '/anonymous',
    access: 'public',
    feature: 'guest',
    captcha: 'anonymous',
    rateLimited: true,
    doc: {
      operationId: 'authAnonymous',
      summary: 'Sign in as a new guest',
      description: "The guest's email is `<uuid>@anonymous.invalid`; /auth/upgrade keeps its id.",
    },
    body: { schema: 'AuthAnonymousRequest', required: false },
    responses: {
      success: sessionOnly('The new guest and its session.', 201),
      errors: { 403: ['REGISTRATION_DISABLED'] },
    },
    run: async (auth, call) => {
      // A body is optional here (it may carry only a captchaToken); one that is sent must be JSON.
      if (call.request.body !== null) await call.body();
      const result = await auth.signInAnonymously(call.info);
      return { status: 201, body: result, session: result };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/upgrade',
    access: 'auth',
    feature: 'guest',
    captcha: 'upgrade',
    doc: {
      operationId: 'authUpgrade',
      summary: "Give the caller's guest account an email and password",
      description: 'Same user id; every earlier session ends and a new one is issued.',
    },
    body: 'AuthUpgradeRequest',
    responses: {
      success: SIGN_IN,
      errors: {
        400: [...PASSWORD_ERRORS, 'INVALID_OPERATION'],
        409: ['USER_ALREADY_EXISTS'],
        ...PASSWORDS_BUSY,
      },
    },
    run: async (auth, call) => {
      const { email, password } = await call.body();
      const result = await auth.upgrade(
        call.token,
        { email, password } as { email: string; password: string },
        call.info,
      );
      return { status: 200, body: result, session: result };
    },
  }),
];
