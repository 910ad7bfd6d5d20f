/**
 * build/validate: the checks that need every type, pointer and function in place — computeds
 * finished, defaults (what they may read), computed pointers' members, scalar
 * constraints resolved, globals, aliases and the SDL call graph. The expressions
 * nothing else depends on (defaults, constraint, index and policy expressions, function bodies)
 * are bound after assembly by the query binder (./bound).
 *
 * Input: a context after pointers, object members and function signatures are built.
 * Output: nothing new but finished drafts; throws the first error found, in declaration order.
 * Each inherited item is the same object in every subtype, so it is checked once, where it was
 * declared (a `Set` of seen drafts).
 */
import * as ql from '../../syntax';
import {
  InvalidConstraintDefinitionError,
  InvalidDefinitionError,
  InvalidLinkDefinitionError,
  InvalidPropertyDefinitionError,
  InvalidReferenceError,
} from '../../errors';
import {
  STD_CONSTRAINT_BODIES,
  type AbstractConstraint,
  type Constraint,
} from '../../model/schema';
import { constraintOf } from './constraints';
import { fail, type AliasDraft, type BuildContext, type PointerDraft } from './context';
import { finishComputed, finishGlobal } from './computed';
import { bindSchemaExpression } from './bound';
import { draftIndex } from './draft-index';
import { checkFunctionCalls } from './functions';
import { candidates, lookupType, resolveType } from './resolve';
import { findNode } from './walk';

export function validate(ctx: BuildContext): void {
  for (const draft of ctx.objectTypes.values()) {
    for (const p of draft.pointers) {
      finishComputed(ctx, p);
      for (const lp of p.properties) finishComputed(ctx, lp);
    }
  }
  for (const g of ctx.globals.values()) finishGlobal(ctx, g);
  for (const alias of ctx.aliases.values()) checkAliasReferences(ctx, alias);
  for (const alias of ctx.aliases.values()) {
    alias.inferred = bindSchemaExpression(draftIndex(ctx), alias.module, alias.expr);
  }
  const seen = new Set<PointerDraft>();
  for (const draft of ctx.objectTypes.values()) {
    for (const p of draft.pointers) checkPointer(ctx, p, seen);
  }
  checkScalarConstraints(ctx);
  checkFunctionCalls(ctx);
}

/**
 * An alias reading itself, directly or through other aliases, is an error (checked on the
 * names it reads, before binding, which inlines the aliases an alias reads).
 */
function checkAliasReferences(ctx: BuildContext, alias: AliasDraft): void {
  if (alias.inference === 'done') return;
  alias.inference = 'running';
  findNode(alias.expr, (n, field) => {
    if (n.kind !== 'ObjectRef' || field === 'func' || field === 'name') return false;
    const found = lookupType(ctx, n, alias.module);
    const read = found?.kind === 'alias' ? ctx.aliases.get(found.name) : undefined;
    if (read?.inference === 'running') {
      fail(InvalidDefinitionError, `alias '${read.name}' is defined recursively`, n.span);
    }
    if (read) checkAliasReferences(ctx, read);
    return false;
  });
  alias.inference = 'done';
}

/** Item 1: what makes a default more than a value — the offending node and why. */
function impureDefault(
  ctx: BuildContext,
  expr: ql.Expr,
  module: string,
): { node: ql.Node; why: string } | null {
  let why = '';
  const node = findNode(expr, (n, field) => {
    if (
      (n.kind === 'Path' && n.subject === null) ||
      (n.kind === 'Anchor' && (n.name === '__subject__' || n.name === '__source__'))
    ) {
      why = 'reads the object';
      return true;
    }
    // A pure query is a value (`(select datetime_current())`); a write never is.
    if (n.kind === 'InsertQuery' || n.kind === 'UpdateQuery' || n.kind === 'DeleteQuery') {
      why = 'writes to the database';
      return true;
    }
    if (n.kind === 'ObjectRef' && field !== 'func' && field !== 'name') {
      const found = lookupType(ctx, n, module);
      if (found?.kind === 'object' || found?.kind === 'alias') {
        why = `reads ${found.kind === 'object' ? 'object type' : 'alias'} '${found.name}'`;
        return true;
      }
    }
    return false;
  });
  return node ? { node, why } : null;
}

function checkPointer(ctx: BuildContext, p: PointerDraft, seen: Set<PointerDraft>): void {
  if (seen.has(p)) return;
  seen.add(p);
  const Err = p.kind === 'link' ? InvalidLinkDefinitionError : InvalidPropertyDefinitionError;
  const node = p.node;
  if (node && p.kind === 'property') {
    const misplaced = node.members.find(
      (m) => m.kind === 'OnTargetDelete' || m.kind === 'OnSourceDelete' || m.kind === 'PointerDecl',
    );
    if (misplaced) {
      fail(
        InvalidPropertyDefinitionError,
        misplaced.kind === 'PointerDecl'
          ? 'cannot place a link property on a property'
          : 'cannot place a deletion policy on a property',
        misplaced.span,
      );
    }
  }
  if (p.computed !== null) {
    if (p.default !== null) fail(Err, `computed '${p.name}' cannot have a default`, p.default.span);
    // A single computed property over the row is checked as its expression (the storage
    // layout compiles it; one reading another table is refused there); others cannot be.
    const own = p.constraints.find((c) => c.declaredIn === p.home && c.span !== null);
    if (own && (p.kind !== 'property' || p.cardinality !== 'one'))
      fail(
        InvalidConstraintDefinitionError,
        `constraints cannot be defined on computed ${p.kind} '${p.name}'`,
        own.span,
        'constraints on a computed hold only for a single property computed from the row',
      );
  }
  if (p.default !== null) {
    const impure = impureDefault(ctx, p.default, p.module);
    if (impure) {
      fail(
        Err,
        `default of '${p.name}' ${impure.why}: compute it in the insert`,
        impure.node.span,
        'a default is a value or a function call; set it in the insert (or use a computed)',
      );
    }
  }
  for (const lp of p.properties) checkPointer(ctx, lp, seen);
}

function checkScalarConstraints(ctx: BuildContext): void {
  for (const [name, decl] of ctx.scalarDecls) {
    const built = ctx.scalars.get(name);
    if (!built) continue;
    const constraints: Constraint[] = [];
    for (const member of decl.node.members) {
      if (member.kind !== 'ConcreteConstraint') continue;
      constraints.push(constraintOf(ctx, member, decl.module, name));
    }
    ctx.scalars.set(name, { ...built, constraints });
  }
}

/**
 * What an abstract constraint inherits from the one it extends when it has no expression of its
 * own: a declared one's expression, parameters and errmessage; a std one's body (`expression`:
 * the concrete constraint's `on (...)` subject itself).
 */
function inheritedConstraint(
  ctx: BuildContext,
  node: ql.AbstractConstraintDecl,
  module: string,
  seen: Set<string>,
): { expr: ql.Expr; params: readonly ql.FuncParam[] | null; errmessage: string | null } | null {
  const base = node.extending[0];
  if (!base) return null;
  for (const name of candidates(base.name, module)) {
    const declared = ctx.constraintDecls.get(name);
    if (declared) {
      if (seen.has(name)) {
        return fail(InvalidDefinitionError, `constraint '${name}' extends itself`, base.span);
      }
      seen.add(name);
      const own = ownConstraintExpr(declared.node);
      const inherited = own ? null : inheritedConstraint(ctx, declared.node, declared.module, seen);
      const expr = own ?? inherited?.expr;
      if (!expr) return null;
      return {
        expr,
        params: declared.node.params ?? inherited?.params ?? null,
        errmessage: errmessageOf(declared.node) ?? inherited?.errmessage ?? null,
      };
    }
    if (name === 'std::expression') {
      return { expr: ql.parseExpression('__subject__'), params: null, errmessage: null };
    }
    const std = STD_CONSTRAINT_BODIES[name];
    if (std && !std.variadic) {
      return { expr: ql.parseExpression(std.expr), params: null, errmessage: null };
    }
  }
  return fail(
    InvalidReferenceError,
    `constraint '${candidates(base.name, module)[0]}' does not exist`,
    base.span,
  );
}

const ownConstraintExpr = (node: ql.AbstractConstraintDecl): ql.Expr | null =>
  node.members.find((m): m is ql.Using => m.kind === 'Using')?.expr ?? node.on;

function errmessageOf(node: ql.AbstractConstraintDecl): string | null {
  const field = node.members.find(
    (m): m is ql.SetField => m.kind === 'SetField' && m.name === 'errmessage',
  );
  return field?.value.kind === 'Constant' ? field.value.value : null;
}

export function abstractConstraints(ctx: BuildContext): AbstractConstraint[] {
  return [...ctx.constraintDecls.values()].map(({ name, module, node }) => {
    const inherited = ownConstraintExpr(node)
      ? null
      : inheritedConstraint(ctx, node, module, new Set([name]));
    const params = (node.params ?? inherited?.params ?? []).map((p) => {
      if (p.typeModifier === 'set of') {
        fail(
          InvalidConstraintDefinitionError,
          `parameter '${p.name}' of constraint '${name}' cannot be a set`,
          p.span,
        );
      }
      return {
        name: p.name,
        kind: p.paramKind,
        typeModifier: p.typeModifier as 'optional' | null,
        type: resolveType(ctx, p.type, module, {
          nestedArray: InvalidConstraintDefinitionError,
          generic: true,
        }),
        default: p.default,
      };
    });
    const expr = ownConstraintExpr(node) ?? inherited?.expr ?? null;
    if (!expr) {
      return fail(
        InvalidConstraintDefinitionError,
        `abstract constraint '${name}' has no expression`,
        node.span,
        'add: using (__subject__ ...)',
      );
    }
    let errmessage: string | null = inherited?.errmessage ?? null;
    for (const m of node.members) {
      if (m.kind !== 'SetField') continue;
      if (m.name !== 'errmessage' || m.value.kind !== 'Constant') {
        fail(
          InvalidDefinitionError,
          `abstract constraint '${name}' takes only errmessage := '...'`,
          m.span,
        );
      }
      errmessage = m.value.value;
    }
    return { name, params, expr, errmessage, span: node.span };
  });
}
