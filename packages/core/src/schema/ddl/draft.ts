/**
 * ddl/draft: an SDL schema in the one shape DDL edits (`Draft`): every declaration in the block of
 * its own module under its own unqualified name, and every computed expression (of a pointer, an
 * alias, a global) as a `using` member, so that the same schema written two ways is one draft.
 * `toDraft` and `fromDraft` convert; `declarationKey` names a declaration among its module's.
 * Pure.
 */
import * as ql from '../../syntax';

export interface Draft {
  readonly extensions: ql.UsingExtension[];
  readonly futures: string[];
  /** By module name (`default`, `blog::posts`), its declarations in order. */
  readonly modules: Map<string, ql.Declaration[]>;
}

const NO_SPAN: ql.Span = {
  start: { line: 0, column: 0, offset: 0 },
  end: { line: 0, column: 0, offset: 0 },
} as ql.Span;

export function using(expr: ql.Expr): ql.Using {
  return { kind: 'Using', span: expr.span ?? NO_SPAN, expr };
}

/** A schema's draft. */
export function toDraft(schema: ql.Schema): Draft {
  const modules = new Map<string, ql.Declaration[]>();
  const into = (module: string): ql.Declaration[] => {
    let list = modules.get(module);
    if (!list) {
      list = [];
      modules.set(module, list);
    }
    return list;
  };
  const walk = (block: ql.ModuleDecl, prefix: string | null): void => {
    const name = prefix === null ? block.name : `${prefix}::${block.name}`;
    if (!block.implicit) into(name);
    for (const decl of block.declarations) {
      if (decl.kind === 'ModuleDecl') {
        walk(decl, name);
        continue;
      }
      if (decl.kind === 'PointerDecl' || decl.name.module === null) {
        into(name).push(normalize(decl));
      } else {
        // `type other::Foo` outside a module block lands in `other` (as build/collect places it).
        into(decl.name.module).push(
          normalize({ ...decl, name: { ...decl.name, module: null } } as ql.Declaration),
        );
      }
    }
  };
  for (const block of schema.modules) walk(block, null);
  return {
    extensions: [...schema.extensions],
    futures: schema.futures.map((f) => f.name),
    modules,
  };
}

/** The draft as a schema: one explicit block a module. */
export function fromDraft(draft: Draft): ql.Schema {
  const modules: ql.ModuleDecl[] = [];
  for (const [name, declarations] of draft.modules) {
    modules.push({
      kind: 'ModuleDecl',
      span: NO_SPAN,
      name,
      implicit: false,
      declarations: declarations.map(shorten),
    });
  }
  return {
    kind: 'Schema',
    span: NO_SPAN,
    extensions: draft.extensions,
    futures: draft.futures.map((name) => ({ kind: 'UsingFuture', span: NO_SPAN, name })),
    modules,
  };
}

/** A copy of a draft, safe to edit. */
export function copyDraft(draft: Draft): Draft {
  return {
    extensions: [...draft.extensions],
    futures: [...draft.futures],
    modules: new Map([...draft.modules].map(([k, v]) => [k, [...v]])),
  };
}

/** What a `drop` or `alter` calls a declaration. */
export function declarationKind(decl: ql.Declaration): ql.DeclarationKind {
  switch (decl.kind) {
    case 'ObjectTypeDecl':
      return 'type';
    case 'ScalarTypeDecl':
      return 'scalar type';
    case 'AbstractConstraintDecl':
      return 'abstract constraint';
    case 'AnnotationDecl':
      return 'abstract annotation';
    case 'FunctionDecl':
      return 'function';
    case 'AliasDecl':
      return 'alias';
    case 'GlobalDecl':
      return 'global';
    case 'PermissionDecl':
      return 'permission';
    case 'PointerDecl':
      return decl.pointerKind === 'link' ? 'abstract link' : 'abstract property';
    case 'ModuleDecl':
      throw new TypeError('a module is not a declaration of a module');
  }
}

export function declarationName(decl: ql.Declaration): string {
  if (decl.kind === 'PointerDecl') return decl.name;
  if (decl.kind === 'ModuleDecl') return decl.name;
  return decl.name.name;
}

/** A function's parameters as its DDL name carries them: `(a: std::str)`. */
export function functionSignature(decl: ql.Declaration): string | null {
  return decl.kind === 'FunctionDecl' ? ql.signatureText(decl.params) : null;
}

/** The key of a declaration among its module's: kind, name, and a function's parameters. */
export function declarationKey(decl: ql.Declaration): string {
  return `${declarationKind(decl)} ${declarationName(decl)}${functionSignature(decl) ?? ''}`;
}

export function refKey(ref: ql.DeclarationRef): string {
  return `${ref.declKind} ${ref.name}${ref.signature ?? ''}`;
}

export function refOf(module: string, decl: ql.Declaration): ql.DeclarationRef {
  return {
    kind: 'DeclarationRef',
    span: NO_SPAN,
    declKind: declarationKind(decl),
    module,
    name: declarationName(decl),
    signature: functionSignature(decl),
  };
}

export { NO_SPAN };

/** Computed expressions as `using` members (the draft's one way to say them). */
function normalize(decl: ql.Declaration): ql.Declaration {
  switch (decl.kind) {
    case 'PointerDecl':
      return normalizePointer(decl);
    case 'ObjectTypeDecl':
      return {
        ...decl,
        members: decl.members.map((m) => (m.kind === 'PointerDecl' ? normalizePointer(m) : m)),
      };
    case 'AliasDecl':
      return decl.expr === null
        ? decl
        : { ...decl, expr: null, members: [using(decl.expr), ...decl.members] };
    case 'GlobalDecl':
      return decl.computed === null
        ? decl
        : { ...decl, computed: null, members: [using(decl.computed), ...decl.members] };
    default:
      return decl;
  }
}

export function normalizePointer(p: ql.PointerDecl): ql.PointerDecl {
  const members = p.members.map((m) => (m.kind === 'PointerDecl' ? normalizePointer(m) : m));
  if (p.computed === null) return { ...p, members };
  return { ...p, computed: null, members: [using(p.computed), ...members] };
}

/** The short forms back where a computed has nothing else in its block. */
function shorten(decl: ql.Declaration): ql.Declaration {
  switch (decl.kind) {
    case 'PointerDecl':
      return shortenPointer(decl);
    case 'ObjectTypeDecl':
      return {
        ...decl,
        members: decl.members.map((m) => (m.kind === 'PointerDecl' ? shortenPointer(m) : m)),
      };
    case 'AliasDecl': {
      const [only] = decl.members;
      return decl.members.length === 1 && only?.kind === 'Using'
        ? { ...decl, expr: only.expr, members: [] }
        : decl;
    }
    case 'GlobalDecl': {
      const [only] = decl.members;
      return decl.members.length === 1 && only?.kind === 'Using' && decl.target === null
        ? { ...decl, computed: only.expr, members: [] }
        : decl;
    }
    default:
      return decl;
  }
}

function shortenPointer(p: ql.PointerDecl): ql.PointerDecl {
  const members = p.members.map((m) => (m.kind === 'PointerDecl' ? shortenPointer(m) : m));
  const [only] = members;
  if (members.length === 1 && only?.kind === 'Using' && p.target === null) {
    return { ...p, computed: only.expr, members: [] };
  }
  return { ...p, members };
}
