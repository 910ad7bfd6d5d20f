/**
 * build/functions: SDL functions (a call is replaced by the function body at compile
 * time, so only what inlining can express is allowed).
 *
 * Input: the `FunctionDecl`s of the context. Output: `ctx.functions` (overloads by name) with
 * resolved parameter and return types, then, once the object types exist, checked bodies.
 * Errors: a `set of` parameter, a self-calling function (directly or through other SDL
 * functions), a `using sql` body, a missing body → `InvalidFunctionDefinitionError`; two
 * functions with one name and the same parameter types → `DuplicateDefinitionError`.
 */
import { printTypeRef } from '../../model/schema';
import type * as ql from '../../syntax';
import { DuplicateDefinitionError, InvalidFunctionDefinitionError } from '../../errors';
import type { FunctionDef } from '../../model/schema';
import { annotationsOf } from './annotations';
import { attempt, fail, settle, type BuildContext, type Decl, type FunctionDraft } from './context';
import { candidates, resolveType } from './resolve';
import { isStdFunction, stdFunctionOverloads } from '../../std';

import { findNode } from './walk';

const use = { nestedArray: InvalidFunctionDefinitionError };

export function buildFunctions(ctx: BuildContext): void {
  const signatures = new Set<string>();
  for (const decl of ctx.functionDecls) attempt(ctx, () => buildFunction(ctx, decl, signatures));
  settle(ctx);
}

function buildFunction(
  ctx: BuildContext,
  { name, module, node }: Decl<ql.FunctionDecl>,
  signatures: Set<string>,
): void {
  const params = node.params.map((p) => {
    if (p.typeModifier === 'set of') {
      fail(
        InvalidFunctionDefinitionError,
        `parameter '${p.name}' of function '${name}' is a set (set of): SDL functions are inlined per value`,
        p.span,
        'take an array<T> and array_unpack() it in the body, or aggregate at the call site',
      );
    }
    return {
      name: p.name,
      kind: p.paramKind,
      typeModifier: p.typeModifier as 'optional' | null,
      type: resolveType(ctx, p.type, module, use),
      default: p.default,
    };
  });
  const signature = `${name}(${params.map((p) => printTypeRef(p.type)).join(', ')})`;
  if (signatures.has(signature)) {
    fail(
      DuplicateDefinitionError,
      `function '${signature}' was already declared`,
      node.span,
      'give it another name or other parameter types',
    );
  }
  signatures.add(signature);
  const sql = node.members.find((m): m is ql.FunctionCode => m.kind === 'FunctionCode');
  if (sql) {
    fail(
      InvalidFunctionDefinitionError,
      'SQL function bodies are not supported',
      sql.span,
      'write the body in EdgeQL: using (...)',
    );
  }
  const body = node.members.find((m): m is ql.Using => m.kind === 'Using')?.expr;
  if (!body) {
    return fail(
      InvalidFunctionDefinitionError,
      `function '${name}' has no body`,
      node.span,
      'add: using (expression)',
    );
  }
  const draft: FunctionDraft = {
    name,
    module,
    node,
    params,
    returnType: resolveType(ctx, node.returnType, module, use),
    returnModifier: node.returnModifier,
    body,
    signature,
  };
  const overloads = ctx.functions.get(name) ?? [];
  overloads.push(draft);
  ctx.functions.set(name, overloads);
}

/**
 * The SDL call graph: every call in a body resolves its name (as the binder does: the
 * module's, then `std`); a cycle back to the caller is an error. Checked on the syntax, before
 * any body is bound, since binding inlines the bodies it calls.
 */
export function checkFunctionCalls(ctx: BuildContext): void {
  const calls = new Map<FunctionDraft, { callee: string; call: ql.FunctionCall }[]>();
  for (const overloads of ctx.functions.values()) {
    for (const fn of overloads) {
      const edges: { callee: string; call: ql.FunctionCall }[] = [];
      findNode(fn.body, (n) => {
        if (n.kind !== 'FunctionCall') return false;
        const callee = candidates(n.func, fn.module).find(
          (name) => ctx.functions.has(name) || isStdFunction(name),
        );
        if (callee !== undefined && ctx.functions.has(callee)) edges.push({ callee, call: n });
        return false;
      });
      calls.set(fn, edges);
    }
  }
  const ordered = ctx.functionDecls
    .map((d) => ctx.functions.get(d.name)?.find((f) => f.node === d.node))
    .filter((f): f is FunctionDraft => f !== undefined);
  for (const fn of ordered) {
    for (const edge of calls.get(fn) ?? []) {
      const path = cycleBack(ctx, calls, edge.callee, fn.name, new Set());
      if (path === null) continue;
      const through = path.length > 0 ? ` through ${path.map((p) => `'${p}'`).join(', ')}` : '';
      fail(
        InvalidFunctionDefinitionError,
        `function '${fn.name}' calls itself${through}: SDL functions are inlined, so they cannot recurse`,
        edge.call.span,
        'compute the result without recursion, or in the application',
      );
    }
  }
}

/** The functions between `from` and a call back to `home`, or null if `from` never gets there. */
function cycleBack(
  ctx: BuildContext,
  calls: Map<FunctionDraft, { callee: string }[]>,
  from: string,
  home: string,
  seen: Set<string>,
): string[] | null {
  if (from === home) return [];
  if (seen.has(from)) return null;
  seen.add(from);
  for (const fn of ctx.functions.get(from) ?? []) {
    for (const edge of calls.get(fn) ?? []) {
      const rest = cycleBack(ctx, calls, edge.callee, home, seen);
      if (rest !== null) return [from, ...rest];
    }
  }
  return null;
}

const VOLATILE_NODES = new Set(['InsertQuery', 'UpdateQuery', 'DeleteQuery']);
const STABLE_NODES = new Set(['SelectQuery', 'GlobalRef', 'ForQuery', 'GroupQuery']);

/** Declared volatility, else the least one the body allows (Gel infers it the same way). */
function volatility(fn: FunctionDraft): FunctionDef['volatility'] {
  const field = fn.node.members.find(
    (m): m is ql.SetField => m.kind === 'SetField' && m.name === 'volatility',
  );
  if (field) {
    const v = field.value.kind === 'Constant' ? field.value.value.toLowerCase() : '';
    const map: Record<string, FunctionDef['volatility']> = {
      immutable: 'Immutable',
      stable: 'Stable',
      volatile: 'Volatile',
    };
    const found = map[v];
    if (!found) {
      return fail(
        InvalidFunctionDefinitionError,
        "volatility must be 'Immutable', 'Stable' or 'Volatile'",
        field.value.span,
      );
    }
    return found;
  }
  const params = new Set(fn.params.map((p) => p.name));
  const stdVolatility = (node: ql.Node) =>
    node.kind === 'FunctionCall'
      ? stdFunctionOverloads(`${node.func.module ?? 'std'}::${node.func.name}`)[0]?.volatility
      : undefined;
  if (findNode(fn.body, (n) => VOLATILE_NODES.has(n.kind) || stdVolatility(n) === 'Volatile'))
    return 'Volatile';
  // A bare name that is not a parameter, a function or a type name reads a set of objects.
  const readsObjects = (n: ql.Node, field: string | null) =>
    n.kind === 'ObjectRef' &&
    field !== 'func' &&
    field !== 'name' &&
    !(n.module === null && params.has(n.name));
  const stable = findNode(
    fn.body,
    (n, field) =>
      stdVolatility(n) === 'Stable' || STABLE_NODES.has(n.kind) || readsObjects(n, field),
  );
  return stable ? 'Stable' : 'Immutable';
}

export function functionDefs(ctx: BuildContext): FunctionDef[] {
  const out: FunctionDef[] = [];
  for (const overloads of ctx.functions.values()) {
    for (const fn of overloads) {
      out.push({
        name: fn.name,
        params: fn.params,
        returnType: fn.returnType,
        returnModifier: fn.returnModifier,
        body: fn.body,
        volatility: volatility(fn),
        annotations: annotationsOf(ctx, fn.node.members, fn.module),
        span: fn.node.span,
      });
    }
  }
  return out;
}
