/**
 * build/collect: the first pass. Walks the modules of the SDL AST and files every declaration
 * under its fully qualified name, so later passes can resolve names in any order.
 *
 * Input: the parsed `ql.Schema`. Output: a `BuildContext` whose declaration tables are filled
 * (object types as drafts without pointers yet).
 * Errors: `SchemaDefinitionError` for a reserved module name (model.ts `reservedModule`);
 * `DuplicateDefinitionError` at the second of two declarations with one name. Types,
 * scalars, aliases and globals share a namespace (as in Gel); constraints, annotations and
 * abstract pointers each have their own; functions are told apart later, by signature.
 */
import type * as ql from '../../syntax';
import { DuplicateDefinitionError, SchemaDefinitionError } from '../../errors';
import { callerGlobal } from '../../std/caller';
import { reservedModule } from '../../model/schema';
import { attempt, fail, newContext, settle, type BuildContext, type Decl } from './context';

type Handler<K extends ql.Declaration['kind']> = (
  ctx: BuildContext,
  decl: Decl<ql.NodeOf<K>>,
  seen: Map<string, string>,
) => void;

/** What each kind of declaration is called in a duplicate message. */
const NOUN: Record<string, string> = {
  ObjectTypeDecl: 'object type',
  ScalarTypeDecl: 'scalar type',
  AliasDecl: 'alias',
  GlobalDecl: 'global',
};

function claim(seen: Map<string, string>, name: string, kind: string, span: ql.Span): void {
  const previous = seen.get(name);
  if (previous !== undefined) {
    fail(
      DuplicateDefinitionError,
      `${NOUN[kind] ?? 'object'} '${name}' was already declared` +
        (previous === kind ? '' : ` (as ${NOUN[previous] ?? 'object'})`),
      span,
    );
  }
  seen.set(name, kind);
}

function claimIn<T extends ql.Node>(
  table: Map<string, Decl<T>>,
  noun: string,
  decl: Decl<T>,
): void {
  if (table.has(decl.name)) {
    fail(DuplicateDefinitionError, `${noun} '${decl.name}' was already declared`, decl.node.span);
  }
  table.set(decl.name, decl);
}

const HANDLERS: { [K in Exclude<ql.Declaration['kind'], 'ModuleDecl'>]: Handler<K> } = {
  ObjectTypeDecl: (ctx, decl, seen) => {
    claim(seen, decl.name, 'ObjectTypeDecl', decl.node.span);
    ctx.objectTypes.set(decl.name, {
      name: decl.name,
      module: decl.module,
      node: decl.node,
      bases: [],
      ancestors: [],
      pointers: [],
      constraints: [],
      indexes: [],
      policies: [],
      annotations: {},
      state: 'new',
    });
  },
  ScalarTypeDecl: (ctx, decl, seen) => {
    claim(seen, decl.name, 'ScalarTypeDecl', decl.node.span);
    ctx.scalarDecls.set(decl.name, decl);
  },
  AliasDecl: (ctx, decl, seen) => {
    claim(seen, decl.name, 'AliasDecl', decl.node.span);
    const using = decl.node.members.find((m): m is ql.Using => m.kind === 'Using');
    const expr = decl.node.expr ?? using?.expr;
    // The parser guarantees one of the two forms.
    if (!expr) return;
    ctx.aliases.set(decl.name, { ...decl, expr, inferred: null, inference: 'pending' });
  },
  GlobalDecl: (ctx, decl, seen) => {
    const short = decl.name.slice(decl.name.lastIndexOf('::') + 2);
    if (callerGlobal(null, short)) {
      fail(
        SchemaDefinitionError,
        `global '${short}' is provided by svc from the caller's credentials and cannot be declared`,
        decl.node.span,
        `read it as \`global ${short}\` without declaring it, or choose another name`,
      );
    }
    claim(seen, decl.name, 'GlobalDecl', decl.node.span);
    ctx.globals.set(decl.name, {
      ...decl,
      target: null,
      required: false,
      cardinality: 'one',
      declaredCardinality: null,
      default: null,
      computed: null,
      annotations: {},
      inference: 'pending',
    });
  },
  AnnotationDecl: (ctx, decl) => claimIn(ctx.annotationDecls, 'annotation', decl),
  AbstractConstraintDecl: (ctx, decl) => claimIn(ctx.constraintDecls, 'constraint', decl),
  PointerDecl: (ctx, decl) =>
    claimIn(ctx.abstractPointers, decl.node.pointerKind ?? 'pointer', decl),
  FunctionDecl: (ctx, decl) => {
    ctx.functionDecls.push(decl);
  },
  // Permissions have no place in the model yet; they are accepted and dropped.
  PermissionDecl: () => undefined,
};

/** `type other::Foo` outside a module block lands in `other`. */
function place(
  module: string,
  ref: { module: string | null; name: string },
): { module: string; name: string } {
  const home = ref.module ?? module;
  return { module: home, name: `${home}::${ref.name}` };
}

function refuseReserved(module: string, span: ql.Span): void {
  if (!reservedModule(module)) return;
  fail(
    SchemaDefinitionError,
    `module name '${module}' is reserved`,
    span,
    'svc_*, pg_*, public, std, schema, sys, cal and math belong to svc, PostgreSQL and the standard library, and super is reserved at any depth; choose another name',
  );
}

function walk(
  ctx: BuildContext,
  module: ql.ModuleDecl,
  prefix: string | null,
  seen: Map<string, string>,
): void {
  const moduleName = prefix === null ? module.name : `${prefix}::${module.name}`;
  attempt(ctx, () => refuseReserved(moduleName, module.span));
  ctx.modules.add(moduleName);
  for (const decl of module.declarations) {
    if (decl.kind === 'ModuleDecl') {
      walk(ctx, decl, moduleName, seen);
      continue;
    }
    const ref = decl.kind === 'PointerDecl' ? { module: null, name: decl.name } : decl.name;
    const { module: home, name } = place(moduleName, ref);
    attempt(ctx, () => {
      if (home !== moduleName) refuseReserved(home, decl.span);
      ctx.modules.add(home);
      const handler = HANDLERS[decl.kind] as Handler<typeof decl.kind>;
      handler(ctx, { name, module: home, node: decl } as Decl<never>, seen);
    });
  }
}

export function collect(ast: ql.Schema): BuildContext {
  const ctx = newContext(ast);
  const seen = new Map<string, string>();
  for (const module of ast.modules) walk(ctx, module, null, seen);
  settle(ctx);
  return ctx;
}
