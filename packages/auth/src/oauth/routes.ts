/**
 * The OAuth / OpenID Connect routes: the browser legs (authorize, the provider's callback) answer
 * redirects; the token leg answers JSON. They exist only when `oauth` is configured (404 and left
 * out of the OpenAPI fragment otherwise).
 */
import { readForm } from '../http/body';
import type { Parameter } from '../openapi/operations';
import { defineRoute } from '../routes/define';
import { SIGN_IN, SIGN_IN_REFUSED } from '../routes/responses';

const PROVIDER: Parameter = {
  name: 'provider',
  in: 'path',
  required: true,
  description: 'A provider name of `authConfig.oauth.providers`.',
  schema: { type: 'string' },
};
const PROVIDER_ERRORS = { 404: ['NOT_FOUND'], 503: ['SERVICE_UNAVAILABLE'] };

export const OAUTH_ROUTES = [
  defineRoute({
    method: 'GET',
    path: '/oauth/:provider/authorize',
    access: 'public',
    feature: 'oauth',
    rateLimited: true,
    doc: {
      operationId: 'authOAuthAuthorize',
      summary: 'Start an OAuth / OpenID Connect sign-in (browser)',
    },
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
    responses: {
      success: { status: 302, description: "To the provider's authorization page." },
      errors: { 400: ['VALIDATION_ERROR'], ...PROVIDER_ERRORS },
    },
    run: async (auth, call) => {
      const q = call.url.searchParams;
      const provider = call.params.provider;
      const { url } = await auth.oauth.authorize(
        provider,
        {
          redirectUri: q.get('redirectUri') as string,
          ...(q.has('codeChallenge') ? { codeChallenge: q.get('codeChallenge') as string } : {}),
          ...(q.has('codeChallengeMethod')
            ? { codeChallengeMethod: q.get('codeChallengeMethod') as string }
            : {}),
          callbackUrl: `${call.url.origin}${call.basePath}/oauth/${provider}/callback`,
        },
        call.info,
      );
      return { status: 302, body: null, redirect: url };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/oauth/:provider/callback',
    access: 'public',
    feature: 'oauth',
    spends: true,
    doc: {
      operationId: 'authOAuthCallback',
      summary: 'The provider sends the browser back here',
      description:
        'Redirects to the redirectUri with `code` (for /auth/oauth/token), or with `error` and `error_description` when the sign-in failed.',
    },
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
    responses: {
      success: { status: 302, description: 'To the application (redirectUri).' },
      errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'], 404: ['NOT_FOUND'] },
    },
    run: async (auth, call) => {
      const q = call.url.searchParams;
      const { location } = await auth.oauth.callback(
        call.params.provider,
        { state: q.get('state'), code: q.get('code'), error: q.get('error') },
        call.info,
      );
      return { status: 302, body: null, redirect: location };
    },
  }),
  // Providers answering with response_mode=form_post (Apple, when it is asked for name or email).
  defineRoute({
    method: 'POST',
    path: '/oauth/:provider/callback',
    access: 'public',
    feature: 'oauth',
    doc: {
      operationId: 'authOAuthCallbackFormPost',
      summary: 'The provider posts the browser back here (response_mode=form_post)',
    },
    parameters: [PROVIDER],
    form: 'AuthOAuthCallbackForm',
    responses: {
      success: { status: 303, description: 'To the application (redirectUri).' },
      errors: { 400: ['VALIDATION_ERROR'], 401: ['INVALID_TOKEN'], 404: ['NOT_FOUND'] },
    },
    run: async (auth, call) => {
      const form = await readForm(call.request);
      const { location } = await auth.oauth.callback(
        call.params.provider,
        { state: form.get('state'), code: form.get('code'), error: form.get('error') },
        call.info,
      );
      // 303: the browser follows a POST's redirect with a GET.
      return { status: 303, body: null, redirect: location };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/oauth/token',
    access: 'public',
    feature: 'oauth',
    rateLimited: true,
    doc: { operationId: 'authOAuthToken', summary: 'Exchange the callback code for a session' },
    body: 'AuthOAuthTokenRequest',
    responses: {
      success: SIGN_IN,
      errors: { 401: ['INVALID_TOKEN'], 403: SIGN_IN_REFUSED },
    },
    run: async (auth, call) => {
      const body = await call.body();
      const result = await auth.oauth.token(
        { code: body.code, codeVerifier: body.codeVerifier } as {
          code: string;
          codeVerifier?: string;
        },
        call.info,
      );
      return { status: 200, body: result, session: result };
    },
  }),
];
