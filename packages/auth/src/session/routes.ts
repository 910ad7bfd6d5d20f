/** The session routes: the caller's live sessions, ending one of them, ending all the others. */
import { defineRoute } from '../routes/define';
import { OK, succeeded } from '../routes/responses';

export const SESSION_ROUTES = [
  defineRoute({
    method: 'GET',
    path: '/sessions',
    access: 'auth',
    feature: 'session',
    doc: { operationId: 'authSessions', summary: "The caller's live sessions" },
    responses: {
      success: {
        status: 200,
        schema: 'AuthSessionList',
        description: 'Most recently active first.',
      },
    },
    run: async (auth, call) => ({
      status: 200,
      body: { sessions: await auth.listSessions(call.token) },
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/sessions/:id',
    access: 'auth',
    feature: 'session',
    doc: {
      operationId: 'authSessionRevoke',
      summary: "End one of the caller's sessions",
      description: "Another user's session id answers 404, as an unknown one does.",
    },
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The session id (GET /auth/sessions).',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    responses: {
      success: succeeded('Ended (the cookie is cleared when it was the current session).', 'clear'),
      errors: { 400: ['VALIDATION_ERROR'], 404: ['NOT_FOUND'] },
    },
    run: async (auth, call) => {
      const { current } = await auth.revokeSession(call.token, call.params.id);
      return { status: 200, body: OK, ...(current ? { session: 'clear' as const } : {}) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sessions/revoke-others',
    access: 'auth',
    feature: 'session',
    doc: {
      operationId: 'authSessionsRevokeOthers',
      summary: 'End every session of the caller but this one',
    },
    responses: {
      success: { status: 200, schema: 'AuthRevokedCount', description: 'How many ended.' },
    },
    run: async (auth, call) => ({
      status: 200,
      body: { revoked: await auth.revokeOtherSessions(call.token) },
    }),
  }),
];
