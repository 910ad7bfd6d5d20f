/**
 * build/objects: the type-level members of object types — constraints, indexes, access policies
 * and annotations — inherited from the bases, then the type's own.
 *
 * Input: drafts with bases resolved. Output: `constraints`, `indexes`, `policies`, `annotations`
 * on every draft (bases first, in the order of `extending`; an inherited item is the same object
 * in every subtype, so it is checked once, in the type that declared it).
 * Rules: policy kinds are expanded (`all` → its five parts, `update` → read and write); only
 * `inheritable` annotations flow down (the expressions are checked in validate.ts).
 * Errors: two policies with one name, or two indexes on the same expression, in one type
 * (`DuplicateDefinitionError`); an unknown field in a policy.
 */
import * as ql from '../../syntax';
import {
  DuplicateDefinitionError,
  InvalidDefinitionError,
  InvalidReferenceError,
} from '../../errors';
import { INDEX_KINDS } from '../../model/fts';
import type { AccessKind, AccessPolicy, Constraint, Index } from '../../model/schema';
import { annotationsOf, inheritableOf } from './annotations';
import { constraintOf } from './constraints';
import { attempt, fail, settle, type BuildContext, type ObjectDraft } from './context';

const EXPAND: Record<ql.AccessKind, readonly AccessKind[]> = {
  all: ['select', 'insert', 'update read', 'update write', 'delete'],
  select: ['select'],
  insert: ['insert'],
  update: ['update read', 'update write'],
  'update read': ['update read'],
  'update write': ['update write'],
  delete: ['delete'],
};
const KIND_ORDER = EXPAND.all;

export function expandKinds(kinds: readonly ql.AccessKind[]): AccessKind[] {
  const set = new Set(kinds.flatMap((k) => EXPAND[k]));
  return KIND_ORDER.filter((k) => set.has(k));
}

/** The kind of `index <kind> on (...)`, which must be one svc knows (model/fts.ts). */
function indexKind(member: ql.ConcreteIndex): string | null {
  const ref = member.name;
  if (ref === null) return null;
  const name = ref.module === null ? ref.name : `${ref.module}::${ref.name}`;
  if (!INDEX_KINDS.has(name)) {
    fail(
      InvalidReferenceError,
      `index '${name}' does not exist`,
      ref.span,
      `the index kinds are ${[...INDEX_KINDS].join(', ')}`,
    );
  }
  if (member.args.length > 0) {
    fail(InvalidDefinitionError, `index '${name}' takes no arguments`, member.span);
  }
  return name;
}

export function buildObjectMembers(ctx: BuildContext): void {
  const done = new Set<string>();
  for (const draft of ctx.objectTypes.values()) attempt(ctx, () => build(ctx, draft, done));
  settle(ctx);
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function build(ctx: BuildContext, draft: ObjectDraft, done: Set<string>): void {
  if (done.has(draft.name)) return;
  done.add(draft.name);
  const bases = draft.bases.map((b) => ctx.objectTypes.get(b) as ObjectDraft);
  for (const base of bases) build(ctx, base, done);
  const constraints: Constraint[] = unique(bases.flatMap((b) => b.constraints));
  const indexes: Index[] = unique(bases.flatMap((b) => b.indexes));
  const policies: AccessPolicy[] = unique(bases.flatMap((b) => b.policies));
  const printed = new Set(indexes.map((i) => ql.printExpression(i.expr)));
  // Each member on its own: a wrong one is reported and left out, the others still checked.
  for (const member of draft.node.members) {
    attempt(ctx, () => {
      switch (member.kind) {
        case 'ConcreteConstraint':
          constraints.push(constraintOf(ctx, member, draft.module, draft.name));
          break;
        case 'ConcreteIndex': {
          const text = ql.printExpression(member.on);
          if (printed.has(text)) {
            fail(
              DuplicateDefinitionError,
              `index on (${text}) of object type '${draft.name}' was already declared`,
              member.span,
            );
          }
          printed.add(text);
          indexes.push({
            kind: indexKind(member),
            expr: member.on,
            except: member.except,
            annotations: annotationsOf(ctx, member.members, draft.module),
            declaredIn: draft.name,
            span: member.span,
          });
          break;
        }
        case 'AccessPolicy': {
          const clash = policies.find((p) => p.name === member.name);
          if (clash) {
            fail(
              DuplicateDefinitionError,
              `access policy '${member.name}' of object type '${draft.name}' was already declared${clash.declaredIn === draft.name ? '' : ` (in '${clash.declaredIn}')`}`,
              member.span,
            );
          }
          policies.push(policyOf(ctx, member, draft));
          break;
        }
        default:
          break;
      }
    });
  }
  draft.constraints = constraints;
  draft.indexes = indexes;
  draft.policies = policies;
  const inherited = Object.assign(
    {},
    ...bases.map((b) => inheritableOf(ctx, b.annotations)),
  ) as Record<string, string>;
  draft.annotations = { ...inherited, ...annotationsOf(ctx, draft.node.members, draft.module) };
}

function policyOf(ctx: BuildContext, node: ql.AccessPolicy, draft: ObjectDraft): AccessPolicy {
  let errmessage: string | null = null;
  for (const member of node.members) {
    if (member.kind !== 'SetField') continue;
    if (
      member.name !== 'errmessage' ||
      member.value.kind !== 'Constant' ||
      member.value.scalar !== 'str'
    ) {
      fail(
        InvalidDefinitionError,
        `access policy '${node.name}' takes only errmessage := '...'`,
        member.span,
      );
    }
    errmessage = member.value.value;
  }
  annotationsOf(ctx, node.members, draft.module);
  return {
    name: node.name,
    action: node.action,
    kinds: expandKinds(node.kinds),
    when: node.when,
    using: node.using,
    errmessage,
    declaredIn: draft.name,
    span: node.span,
  };
}
