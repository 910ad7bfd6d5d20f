/** Role storage: roles and who holds them. */
import { sql } from 'kysely';
import type { MemoryState } from '../store/memory-state';
import { compare, isPgError, type PgRunner, pgErrorText, UUID_RE } from '../store/sql';

export interface RoleRecord {
  readonly name: string;
  readonly description: string | null;
}

export type AssignResult = 'assigned' | 'already-assigned' | 'no-such-role' | 'no-such-user';

export interface RoleStore {
  /** Null when the name is taken. */
  createRole(name: string, description: string | null): Promise<RoleRecord | null>;
  /** Creates the role unless it exists; returns it. */
  ensureRole(name: string, description: string | null): Promise<RoleRecord>;
  /** Deletes the role and every assignment of it; false when there was none. */
  deleteRole(name: string): Promise<boolean>;
  /** Sorted by name. */
  listRoles(): Promise<RoleRecord[]>;
  assignRole(userId: string, role: string): Promise<AssignResult>;
  /** False when the user did not hold it. */
  revokeRole(userId: string, role: string): Promise<boolean>;
  /** Role names the user holds, sorted. */
  userRoles(userId: string): Promise<string[]>;
  /** How many users hold each role (every role, 0 included), in one query. */
  roleMemberCounts(): Promise<Record<string, number>>;
}

const toRole = (r: { name: string; description: string | null }): RoleRecord => ({
  name: r.name,
  description: r.description,
});

export function postgresRoleStore(r: PgRunner): RoleStore {
  const { k, now } = r;
  return {
    async createRole(name, description) {
      const row = await k()
        .insertInto('roles')
        .values({ name, description, created_at: now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning(['name', 'description'])
        .executeTakeFirst();
      return row ? toRole(row) : null;
    },
    async ensureRole(name, description) {
      await k()
        .insertInto('roles')
        .values({ name, description, created_at: now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await k()
        .selectFrom('roles')
        .select(['name', 'description'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return toRole(row);
    },
    async deleteRole(name) {
      const res = await k().deleteFrom('roles').where('name', '=', name).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
    async listRoles() {
      const rows = await k()
        .selectFrom('roles')
        .select(['name', 'description'])
        .orderBy(sql`name collate "C"`)
        .execute();
      return rows.map(toRole);
    },
    async assignRole(userId, role): Promise<AssignResult> {
      if (!UUID_RE.test(userId)) return 'no-such-user';
      try {
        const res = await k()
          .insertInto('user_roles')
          .values({ user_id: userId, role_name: role, created_at: now() })
          .onConflict((oc) => oc.columns(['user_id', 'role_name']).doNothing())
          .executeTakeFirst();
        return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0 ? 'assigned' : 'already-assigned';
      } catch (err) {
        if (isPgError(err, '23503'))
          return /role_name/.test(pgErrorText(err)) ? 'no-such-role' : 'no-such-user';
        throw err;
      }
    },
    async revokeRole(userId, role) {
      if (!UUID_RE.test(userId)) return false;
      const res = await k()
        .deleteFrom('user_roles')
        .where('user_id', '=', userId)
        .where('role_name', '=', role)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
    async userRoles(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('user_roles')
        .select('role_name')
        .where('user_id', '=', userId)
        .orderBy(sql`role_name collate "C"`)
        .execute();
      return rows.map((row) => row.role_name);
    },
    async roleMemberCounts() {
      const rows = await k()
        .selectFrom('roles')
        .leftJoin('user_roles', 'user_roles.role_name', 'roles.name')
        .select(['roles.name', sql<number>`count(user_roles.user_id)::int`.as('n')])
        .groupBy('roles.name')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
    },
  };
}

export function memoryRoleStore(m: MemoryState): RoleStore {
  const { roles, userRoles } = m;
  return {
    async createRole(name, description) {
      if (roles.has(name)) return null;
      const role = { name, description };
      roles.set(name, role);
      return { ...role };
    },
    async ensureRole(name, description) {
      if (!roles.has(name)) roles.set(name, { name, description });
      return { ...roles.get(name)! };
    },
    async deleteRole(name) {
      if (!roles.delete(name)) return false;
      for (const set of userRoles.values()) set.delete(name);
      return true;
    },
    async listRoles() {
      return [...roles.values()].sort((a, b) => compare(a.name, b.name)).map((r) => ({ ...r }));
    },
    async assignRole(userId, role): Promise<AssignResult> {
      if (!m.users.has(userId)) return 'no-such-user';
      if (!roles.has(role)) return 'no-such-role';
      let set = userRoles.get(userId);
      if (!set) {
        set = new Set();
        userRoles.set(userId, set);
      }
      if (set.has(role)) return 'already-assigned';
      set.add(role);
      return 'assigned';
    },
    async revokeRole(userId, role) {
      return userRoles.get(userId)?.delete(role) ?? false;
    },
    async userRoles(userId) {
      return [...(userRoles.get(userId) ?? [])].sort(compare);
    },
    async roleMemberCounts() {
      const counts: Record<string, number> = {};
      for (const name of roles.keys()) counts[name] = 0;
      for (const set of userRoles.values())
        for (const name of set) if (name in counts) counts[name] = (counts[name] ?? 0) + 1;
      return counts;
    },
  };
}
