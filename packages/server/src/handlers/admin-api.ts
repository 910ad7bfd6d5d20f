/**
 * The admin UI's own JSON routes (`/_/api/*`, docs/http.md, "The admin UI"). Besides
 * `GET /_/api/session`, every one is for a superuser (or the service key) only: the token's
 * `superuser` role is checked, and then the role as stored now (a role revoked since sign-in
 * counts at once here). The credential is the admin UI's own `svc_admin` cookie or a bearer
 * (handlers/admin-session); writes come behind the cookie rule (a cookie write from a foreign
 * page is 403 before anything runs).
 *
 * - `GET /_/api/session`: the auth settings the page needs and who the credential is.
 * - `POST /_/api/query`: `/query` "run as" a user: the statement runs with that user's id,
 *   email and current roles as the caller's globals, under the access policies as that user
 *   meets them, and READ-ONLY whatever the user may do (a write is 503 READ_ONLY): it shows
 *   what the user sees, it never acts as them.
 * - `GET /_/api/users` (`search?`, `offset?`, and `limit?` without a search),
 *   `GET /_/api/users/:id`, `POST /_/api/users/:id/active`, `GET /_/api/users/:id/sessions`,
 *   `DELETE /_/api/users/:id/sessions/:session`, `POST /_/api/users/:id/revoke-sessions`,
 *   `POST /_/api/users/:id/roles` (`createIfMissing` creates an unknown role, as
 *   `svc admin assign-role` does), `DELETE /_/api/users/:id/roles/:role`: @svc/auth's
 *   administrative operations. `:id` is a user's id or email.
 */
import type { Request, Response } from 'express';
import { commonError, type AuthValues, type DefaultAccess, type QueryEngine } from '@svc/core';
import { authError, type Auth } from '@svc/auth';
import type { Protocol } from '../config';
import { sendJson } from '../http/respond';
import type { Caller } from '../middleware/authenticate';
import { SUPERUSER, superuserCaller } from './admin-session';
import { requestSignal } from '../middleware/timeout';
import { jsonObjectBody } from './json-body';
import { parseQueryRequest } from './query-request';

export interface AdminApiDeps {
  readonly auth: Auth | undefined;
  readonly rest: boolean;
  readonly engine: QueryEngine;
  readonly protocol: Protocol;
  readonly defaultAccess: DefaultAccess;
}

const USER_PAGE = 50;

/** A query parameter that must be a whole number (`?limit=20`): VALIDATION_ERROR otherwise. */
function wholeNumber(name: string, value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value))
    throw commonError('VALIDATION_ERROR', `"${name}" must be a whole number`);
  return Number(value);
}

export function adminApiHandlers(deps: AdminApiDeps) {
  const { auth } = deps;

  /** The caller, when a superuser (by token and by the stored role) or the service key. */
  const superuser = (res: Response): Promise<Caller> => superuserCaller(auth, res);

  function needAuth(): Auth {
    if (!auth) throw commonError('NOT_FOUND', 'the server has no built-in auth');
    return auth;
  }

  async function userOf(req: Request) {
    const a = needAuth();
    const id = String((req.params as { id?: string }).id ?? '');
    const user = await a.findUser(id);
    if (!user) throw authError('USER_NOT_FOUND', `no user ${id}`);
    return { a, user };
  }

  return {
    async session(_req: Request, res: Response): Promise<void> {
      const caller = res.locals.caller as Caller | undefined;
      let who: unknown = null;
      if (caller?.kind === 'user' && caller.context.userId) {
        who = {
          id: caller.context.userId,
          email: caller.context.jwtClaims?.email ?? '',
          roles: caller.context.roles,
          superuser: caller.context.roles.includes(SUPERUSER),
        };
      }
      sendJson(res, 200, {
        auth: Boolean(auth),
        rest: deps.rest,
        runAs: Boolean(auth),
        passkey: Boolean(auth?.config.webauthn),
        caller: who,
      });
    },

    async query(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const a = needAuth();
      const raw = (req.body ?? {}) as Record<string, unknown>;
      const runAs = raw.runAs;
      if (typeof runAs !== 'string' || runAs.trim() === '') {
        throw commonError('VALIDATION_ERROR', '"runAs" must name a user (id or email)');
      }
      const { runAs: _runAs, ...rest } = raw;
      const body = parseQueryRequest(rest);
      const user = await a.findUser(runAs.trim());
      if (!user) throw authError('USER_NOT_FOUND', `no user ${runAs}`);
      if (!user.active) throw commonError('INVALID_OPERATION', `${user.email} is deactivated`);
      const roles = await a.roles.getUserRoles(user.id);
      const values: AuthValues = { userId: user.id, email: user.email, roles, permissions: [] };
      const unrestricted = deps.protocol === 'simple' || roles.includes(SUPERUSER);
      const caller = {
        access: { policies: !unrestricted, readOnly: true, defaultAccess: deps.defaultAccess },
        auth: values,
      };
      const who = JSON.stringify({ id: user.id, email: user.email, roles });
      if (body.describe) {
        // The types as that user's query would have them, nothing run.
        const description = await deps.engine.describe(body, caller);
        sendJson(res, 200, `{"describe":${JSON.stringify(description)},"runAs":${who}}`);
        return;
      }
      const data = await deps.engine.run(body, caller, { signal: requestSignal(res) });
      sendJson(res, 200, `{"data":${data},"runAs":${who}}`);
    },

    async users(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const a = needAuth();
      const q = req.query as Record<string, unknown>;
      const search = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
      const offset = Math.max(0, Number(q.offset ?? 0) || 0);
      if (search === '') {
        // `limit` (1 to 1000, @svc/auth's bound) for `svc admin list-users --limit`.
        const limit = q.limit === undefined ? USER_PAGE : wholeNumber('limit', q.limit);
        const page = await a.listUsers({ limit, offset });
        sendJson(res, 200, page);
        return;
      }
      // A search reads the first 1,000 users and filters them (first slice: no index behind it).
      const all = await a.listUsers({ limit: 1000, offset: 0 });
      const users = all.users.filter(
        (u) =>
          u.email.toLowerCase().includes(search) ||
          (u.username ?? '').toLowerCase().includes(search) ||
          u.id === search,
      );
      sendJson(res, 200, {
        users: users.slice(offset, offset + USER_PAGE),
        total: users.length,
        limit: USER_PAGE,
        offset,
      });
    },

    async user(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const { a, user } = await userOf(req);
      sendJson(res, 200, { ...user, roles: await a.roles.getUserRoles(user.id) });
    },

    async setActive(req: Request, res: Response): Promise<void> {
      const caller = await superuser(res);
      const { a, user } = await userOf(req);
      const body = jsonObjectBody(req.body, new Set(['active']), 'an "active" boolean');
      if (typeof body.active !== 'boolean') {
        throw commonError('VALIDATION_ERROR', '"active" must be true or false');
      }
      if (!body.active && caller.kind === 'user' && caller.context.userId === user.id) {
        throw commonError('INVALID_OPERATION', 'you cannot deactivate yourself');
      }
      await a.setActive(user.id, body.active);
      // A deactivated user's sessions end with it.
      const revoked = body.active ? 0 : await a.revokeAllSessions(user.id);
      sendJson(res, 200, { active: body.active, revoked });
    },

    async sessions(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const { a, user } = await userOf(req);
      sendJson(res, 200, { sessions: await a.listUserSessions(user.id) });
    },

    async revokeSession(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const { a, user } = await userOf(req);
      await a.revokeUserSession(
        user.id,
        String((req.params as { session?: string }).session ?? ''),
      );
      sendJson(res, 200, { success: true });
    },

    async revokeSessions(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const { a, user } = await userOf(req);
      sendJson(res, 200, { revoked: await a.revokeAllSessions(user.id) });
    },

    async assignRole(req: Request, res: Response): Promise<void> {
      await superuser(res);
      const { a, user } = await userOf(req);
      const body = jsonObjectBody(req.body, new Set(['role', 'createIfMissing']), 'a "role" name');
      if (typeof body.role !== 'string' || body.role.trim() === '') {
        throw commonError('VALIDATION_ERROR', '"role" must be a role name');
      }
      if (body.createIfMissing !== undefined && typeof body.createIfMissing !== 'boolean')
        throw commonError('VALIDATION_ERROR', '"createIfMissing" must be true or false');
      const { roleCreated } = await a.roles.assign(user.id, body.role.trim(), {
        createIfMissing: body.createIfMissing === true,
      });
      sendJson(res, 200, { roles: await a.roles.getUserRoles(user.id), roleCreated });
    },

    async revokeRole(req: Request, res: Response): Promise<void> {
      const caller = await superuser(res);
      const { a, user } = await userOf(req);
      const role = String((req.params as { role?: string }).role ?? '');
      if (role === SUPERUSER && caller.kind === 'user' && caller.context.userId === user.id) {
        throw commonError('INVALID_OPERATION', 'you cannot take the superuser role from yourself');
      }
      await a.roles.revoke(user.id, role);
      sendJson(res, 200, { roles: await a.roles.getUserRoles(user.id) });
    },
  };
}
