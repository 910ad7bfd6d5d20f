/**
 * build/inherit: object type bases and their C3 linearisation.
 *
 * Input: object type drafts with their `extending` lists. Output: `bases` (fully qualified, as
 * written) and `ancestors` (C3 order, without the type itself) on every draft.
 * Errors: an unknown base (`InvalidReferenceError`), a scalar or alias base, a type that
 * extends itself (directly or not), or bases with no consistent order (`InvalidDefinitionError`).
 */
import { InvalidDefinitionError, InvalidReferenceError } from '../../errors';
import { isSchemaModuleType } from '../../model/introspection';
import { ROOT_OBJECT_TYPES } from '../../model/schema';
import { attempt, fail, settle, type BuildContext, type ObjectDraft } from './context';
import { allTypeNames, candidates, hintFor, lookupType } from './resolve';

export function resolveBases(ctx: BuildContext): void {
  for (const draft of ctx.objectTypes.values()) attempt(ctx, () => resolveOwnBases(ctx, draft));
  settle(ctx);
  const done = new Set<string>();
  const active = new Set<string>();
  for (const draft of ctx.objectTypes.values()) linearize(ctx, draft, done, active);
}

/** The bases `draft` names in `extending`, resolved (the roots left implicit). */
function resolveOwnBases(ctx: BuildContext, draft: ObjectDraft): void {
  const bases: string[] = [];
  for (const base of draft.node.extending) {
    const found = lookupType(ctx, base.name, draft.module);
    if (!found) {
      fail(
        InvalidReferenceError,
        `type '${candidates(base.name, draft.module)[0] ?? base.name.name}' does not exist`,
        base.span,
        hintFor(base.name.name, allTypeNames(ctx)),
      );
    }
    if (found.kind !== 'object') {
      fail(
        InvalidDefinitionError,
        `object type '${draft.name}' cannot extend ${found.kind} type '${found.name}'`,
        base.span,
        'an object type extends object types only',
      );
    }
    if (isSchemaModuleType(found.name)) {
      fail(
        InvalidDefinitionError,
        `object type '${draft.name}' cannot extend '${found.name}': the schema module's types are the compiler's`,
        base.span,
      );
    }
    if ((ROOT_OBJECT_TYPES as readonly string[]).includes(found.name)) continue; // implicit
    if (bases.includes(found.name)) {
      fail(InvalidDefinitionError, `'${found.name}' is listed twice in extending`, base.span);
    }
    bases.push(found.name);
  }
  draft.bases = bases;
}

/** C3: the type, then a merge of its bases' linearisations and the bases list itself. */
function linearize(
  ctx: BuildContext,
  draft: ObjectDraft,
  done: Set<string>,
  active: Set<string>,
): string[] {
  if (done.has(draft.name)) return [draft.name, ...draft.ancestors];
  if (active.has(draft.name)) {
    return fail(
      InvalidDefinitionError,
      `'${draft.name}' is defined recursively`,
      draft.node.name.span,
    );
  }
  active.add(draft.name);
  const sequences = draft.bases.map((b) =>
    linearize(ctx, ctx.objectTypes.get(b) as ObjectDraft, done, active),
  );
  sequences.push([...draft.bases]);
  const result: string[] = [];
  for (;;) {
    const live = sequences.filter((s) => s.length > 0);
    if (live.length === 0) break;
    const head = live.map((s) => s[0] as string).find((h) => !live.some((s) => s.indexOf(h) > 0));
    if (head === undefined) {
      return fail(
        InvalidDefinitionError,
        `could not find a consistent order of the bases of '${draft.name}'`,
        draft.node.extending[0]?.span ?? draft.node.span,
        'list more specific bases before the more general ones',
      );
    }
    result.push(head);
    for (const s of live) if (s[0] === head) s.shift();
  }
  active.delete(draft.name);
  done.add(draft.name);
  draft.ancestors = result;
  return [draft.name, ...result];
}
