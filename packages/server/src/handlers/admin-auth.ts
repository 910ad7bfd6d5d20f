/**
 * The admin UI's routes over @svc/auth's administrative operations, the settings in force and
 * the figures (docs/http.md, "The admin UI"), all for a superuser (or the service key) only,
 * checked as for every admin route (`superuserCaller`):
 *
 * - `POST /_/api/users`: create a user (`auth.createUser`: email, password, emailVerified?), or
 *   with `superuser: true` a superuser (`auth.createSuperuser`: verified, holding the role).
 * - `POST /_/api/users/:id/password`: `auth.setPassword` (no old one; every session ends).
 * - `GET /_/api/users/:id/factors`: TOTP, unused recovery codes, passkeys (`auth.userFactors`).
 * - `POST /_/api/users/:id/password-reset`: the public recover route's operation
 *   (`auth.requestReset`): the same email and the same rate limit (per address, and per IP: the
 *   administrator's).
 * - `POST /_/api/users/:id/reset-mfa`: `auth.resetMfa`.
 * - `DELETE /_/api/users/:id/passkeys/:credential`: `auth.deleteUserPasskey`.
 * - `GET /_/api/roles`, `POST /_/api/roles`, `DELETE /_/api/roles/:name`: roles with how many
 *   users hold each; create; delete (not `superuser`).
 * - `GET /_/api/settings`: server, database and auth settings without a secret
 *   (config/shown.ts, @svc/auth `describeAuthSettings`).
 */
import type { Request, Response } from 'express';
import { commonError } from '@svc/core';
import { authError, describeAuthSettings, type Auth } from '@svc/auth';
import type { ResolvedConfig } from '../config';
import { describeSettings } from '../config/shown';
import { sendJson } from '../http/respond';
import { SUPERUSER, superuserCaller } from './admin-session';
import { jsonObjectBody } from './json-body';

export interface AdminAuthDeps {
  readonly auth: Auth | undefined;
  readonly config: ResolvedConfig;
}

export function adminAuthHandlers(deps: AdminAuthDeps) {
  const { auth } = deps;

  async function needAuth(res: Response): Promise<Auth> {
    await superuserCaller(auth, res);
    if (!auth) throw commonError('NOT_FOUND', 'the server has no built-in auth');
    return auth;
  }

  async function userOf(req: Request, res: Response) {
    const a = await needAuth(res);
    const id = String((req.params as { id?: string }).id ?? '');
    const user = await a.findUser(id);
    if (!user) throw authError('USER_NOT_FOUND', `no user ${id}`);
    return { a, user };
  }

  return {
    async createUser(req: Request, res: Response): Promise<void> {
      const a = await needAuth(res);
      const body = jsonObjectBody(
        req.body,
        new Set(['email', 'password', 'emailVerified', 'superuser']),
        'an "email" and a "password"',
      );
      if (typeof body.email !== 'string' || typeof body.password !== 'string')
        throw commonError('VALIDATION_ERROR', '"email" and "password" must be strings');
      if (body.superuser !== undefined && typeof body.superuser !== 'boolean')
        throw commonError('VALIDATION_ERROR', '"superuser" must be true or false');
      if (body.superuser === true) {
        if (body.emailVerified !== undefined)
          throw commonError(
            'VALIDATION_ERROR',
            'a superuser is always verified: no "emailVerified"',
          );
        const user = await a.createSuperuser(body.email, body.password);
        sendJson(res, 201, { ...user, roles: [SUPERUSER] });
        return;
      }
      const user = await a.createUser({
        email: body.email,
        password: body.password,
        ...(body.emailVerified !== undefined
          ? { emailVerified: body.emailVerified as boolean }
          : {}),
      });
      sendJson(res, 201, { ...user, roles: [] });
    },

    async setPassword(req: Request, res: Response): Promise<void> {
      const { a, user } = await userOf(req, res);
      const body = jsonObjectBody(req.body, new Set(['password']), 'a "password"');
      if (typeof body.password !== 'string')
        throw commonError('VALIDATION_ERROR', '"password" must be a string');
      await a.setPassword(user.id, body.password);
      sendJson(res, 200, { success: true });
    },

    async factors(req: Request, res: Response): Promise<void> {
      const { a, user } = await userOf(req, res);
      sendJson(res, 200, await a.userFactors(user.id));
    },

    async passwordReset(req: Request, res: Response): Promise<void> {
      const { a, user } = await userOf(req, res);
      if (!user.active) throw commonError('INVALID_OPERATION', `${user.email} is deactivated`);
      await a.requestReset(user.email, {
        ...(req.ip ? { ip: req.ip } : {}),
        ...(req.get('user-agent') ? { userAgent: req.get('user-agent') as string } : {}),
      });
      sendJson(res, 200, { sent: true, email: user.email });
    },

    async resetMfa(req: Request, res: Response): Promise<void> {
      const { a, user } = await userOf(req, res);
      sendJson(res, 200, await a.resetMfa(user.id));
    },

    async deletePasskey(req: Request, res: Response): Promise<void> {
      const { a, user } = await userOf(req, res);
      await a.deleteUserPasskey(
        user.id,
        String((req.params as { credential?: string }).credential ?? ''),
      );
      sendJson(res, 200, { success: true });
    },

    async roles(_req: Request, res: Response): Promise<void> {
      const a = await needAuth(res);
      const [roles, counts] = await Promise.all([a.roles.list(), a.roles.memberCounts()]);
      sendJson(res, 200, {
        roles: roles.map((r) => ({ ...r, members: counts[r.name] ?? 0 })),
      });
    },

    async createRole(req: Request, res: Response): Promise<void> {
      const a = await needAuth(res);
      const body = jsonObjectBody(req.body, new Set(['name', 'description']), 'a role "name"');
      if (typeof body.name !== 'string')
        throw commonError('VALIDATION_ERROR', '"name" must be a role name');
      if (body.description !== undefined && typeof body.description !== 'string')
        throw commonError('VALIDATION_ERROR', '"description" must be a string');
      const role = await a.roles.create(
        body.name.trim(),
        body.description === undefined || body.description === ''
          ? undefined
          : (body.description as string),
      );
      sendJson(res, 201, { ...role, members: 0 });
    },

    async deleteRole(req: Request, res: Response): Promise<void> {
      const a = await needAuth(res);
      const name = String((req.params as { name?: string }).name ?? '');
      if (name === SUPERUSER)
        throw commonError('INVALID_OPERATION', 'the superuser role cannot be deleted');
      if (!(await a.roles.list()).some((r) => r.name === name))
        throw commonError('NOT_FOUND', `no role ${name}`);
      await a.roles.delete(name);
      sendJson(res, 200, { success: true });
    },

    async settings(_req: Request, res: Response): Promise<void> {
      await superuserCaller(auth, res);
      sendJson(res, 200, {
        ...describeSettings(deps.config),
        auth: auth ? describeAuthSettings(auth.config) : null,
      });
    },
  };
}
