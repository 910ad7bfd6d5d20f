/** Conformance cases of the role verbs (`roles/store.ts`). */
import { randomUUID } from 'node:crypto';
import type { StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function roleStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user } = cx;
  describe('roles', () => {
    test('createRole, ensureRole, listRoles (sorted by code point)', async () => {
      expect(await cx.store.createRole('editor', 'Edits')).toEqual({
        name: 'editor',
        description: 'Edits',
      });
      expect(await cx.store.createRole('editor', 'again')).toBeNull();
      expect(await cx.store.ensureRole('editor', 'ignored')).toEqual({
        name: 'editor',
        description: 'Edits',
      });
      expect(await cx.store.ensureRole('Admin', null)).toEqual({
        name: 'Admin',
        description: null,
      });
      expect(await cx.store.listRoles()).toEqual([
        { name: 'Admin', description: null },
        { name: 'editor', description: 'Edits' },
      ]);
    });

    test('assignRole, userRoles, revokeRole', async () => {
      const u = await user();
      await cx.store.createRole('b', null);
      await cx.store.createRole('a', null);
      expect(await cx.store.assignRole(u.id, 'b')).toBe('assigned');
      expect(await cx.store.assignRole(u.id, 'a')).toBe('assigned');
      expect(await cx.store.assignRole(u.id, 'a')).toBe('already-assigned');
      expect(await cx.store.assignRole(u.id, 'missing')).toBe('no-such-role');
      expect(await cx.store.assignRole(randomUUID(), 'a')).toBe('no-such-user');
      expect(await cx.store.userRoles(u.id)).toEqual(['a', 'b']);
      expect(await cx.store.revokeRole(u.id, 'a')).toBe(true);
      expect(await cx.store.revokeRole(u.id, 'a')).toBe(false);
      expect(await cx.store.userRoles(u.id)).toEqual(['b']);
    });

    test('roleMemberCounts: every role with how many users hold it', async () => {
      const [u, v] = [await user(), await user()];
      await cx.store.createRole('both', null);
      await cx.store.createRole('one', null);
      await cx.store.createRole('none', null);
      for (const who of [u, v]) await cx.store.assignRole(who.id, 'both');
      await cx.store.assignRole(v.id, 'one');
      expect(await cx.store.roleMemberCounts()).toEqual({ both: 2, one: 1, none: 0 });
      await cx.store.deleteRole('both');
      expect(await cx.store.roleMemberCounts()).toEqual({ one: 1, none: 0 });
    });

    test('deleteRole cascades to assignments', async () => {
      const u = await user();
      await cx.store.createRole('gone', null);
      await cx.store.assignRole(u.id, 'gone');
      expect(await cx.store.deleteRole('gone')).toBe(true);
      expect(await cx.store.deleteRole('gone')).toBe(false);
      expect(await cx.store.userRoles(u.id)).toEqual([]);
      expect(await cx.store.listRoles()).toEqual([]);
    });
  });
}
