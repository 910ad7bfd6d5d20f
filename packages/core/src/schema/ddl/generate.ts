/**
 * ddl/generate: two schemas and the user's hints → the DDL that edits the first into the second
 * (`applyDdl(from, generateDdl(from, to, hints)).schema` is `to`, up to the order of members and
 * how each is spelled). What `svc migration create` writes in a migration file.
 *
 * A declaration or member only in `to` is created and one only in `from` dropped; one in both is
 * altered where they differ. Pointers are altered in place (rename, required, cardinality, type,
 * their members); a member that has no alter of its own (a constraint, an index, a policy) is
 * dropped and created again, which changes no data. A hint's rename pairs two names; a fill goes
 * with the `set required` or `set type` it is for (a new required pointer with a fill is created
 * optional, then made required using it, which is what happens to the data).
 * Pure.
 */
import type { MigrationHints } from '../../model/migration';
import type { Schema } from '../../model/schema';
import * as ql from '../../syntax';
import { declarationKey, declarationName, NO_SPAN, refOf, toDraft } from './draft';

type Member = ql.BlockMember;

/** Which a pointer declared without `property` or `link` is, when the model knows. */
export type PointerKindOf = (type: string, pointer: string) => 'property' | 'link' | undefined;

/** What `model` says each pointer of each object type is. */
export function pointerKindsOf(model: Schema): PointerKindOf {
  const kinds = new Map<string, 'property' | 'link'>();
  for (const t of model.objectTypes) {
    for (const p of t.pointers) kinds.set(`${t.name}.${p.name}`, p.kind);
  }
  return (type, pointer) => kinds.get(`${type}.${pointer}`);
}

interface Context {
  readonly fills: ReadonlyMap<string, string>;
  readonly pointerRenames: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly kindOf: PointerKindOf;
}

export function generateDdl(
  from: ql.Schema,
  to: ql.Schema,
  hints: MigrationHints = {},
  kindOf: PointerKindOf = () => undefined,
): ql.DdlCommand[] {
  const a = toDraft(from);
  const b = toDraft(to);
  const qualify = (name: string) => (name.includes('::') ? name : `default::${name}`);
  const typeRenames = new Map<string, string>();
  const pointerRenames = new Map<string, Map<string, string>>();
  for (const r of hints.renames ?? []) {
    if (r.kind === 'type') typeRenames.set(qualify(r.from), qualify(r.to));
  }
  const newName = (type: string) => typeRenames.get(type) ?? type;
  for (const r of hints.renames ?? []) {
    if (r.kind !== 'pointer') continue;
    // Named by its stored or its new name: keyed here by the new one.
    const type = qualify(r.type);
    const key = typeRenames.has(type) ? newName(type) : type;
    const map = pointerRenames.get(key) ?? new Map<string, string>();
    map.set(r.from, r.to);
    pointerRenames.set(key, map);
  }
  const fills = new Map(
    Object.entries(hints.fills ?? {}).map(([k, v]) => [k.includes('::') ? k : `default::${k}`, v]),
  );
  const ctx: Context = { fills, pointerRenames, kindOf };

  const out: ql.DdlCommand[] = [];
  const created: ql.DdlCommand[] = [];
  const altered: ql.DdlCommand[] = [];
  const dropped: ql.DdlCommand[] = [];

  for (const ext of b.extensions) {
    const was = a.extensions.find((e) => e.name === ext.name);
    if (was && was.version === ext.version) continue;
    if (was) out.push({ kind: 'DropExtension', span: NO_SPAN, name: ext.name });
    out.push({ kind: 'CreateExtension', span: NO_SPAN, extension: ext });
  }
  for (const ext of a.extensions) {
    if (!b.extensions.some((e) => e.name === ext.name))
      dropped.push({ kind: 'DropExtension', span: NO_SPAN, name: ext.name });
  }
  for (const f of b.futures)
    if (!a.futures.includes(f)) out.push({ kind: 'CreateFuture', span: NO_SPAN, name: f });
  for (const f of a.futures)
    if (!b.futures.includes(f)) dropped.push({ kind: 'DropFuture', span: NO_SPAN, name: f });
  for (const m of b.modules.keys())
    if (!a.modules.has(m)) out.push({ kind: 'CreateModule', span: NO_SPAN, name: m });

  // Declarations of `from` by their qualified key in `to` (a renamed type under its new name).
  const before = new Map<string, { module: string; decl: ql.Declaration }>();
  for (const [module, decls] of a.modules) {
    for (const decl of decls) {
      let key = `${module}::${declarationKey(decl)}`;
      if (decl.kind === 'ObjectTypeDecl') {
        const renamedTo = typeRenames.get(`${module}::${decl.name.name}`);
        if (renamedTo)
          key = `${renamedTo.slice(0, renamedTo.lastIndexOf('::'))}::type ${renamedTo.slice(renamedTo.lastIndexOf('::') + 2)}`;
      }
      before.set(key, { module, decl });
    }
  }
  const matched = new Set<string>();
  for (const [module, decls] of b.modules) {
    for (const decl of decls) {
      const key = `${module}::${declarationKey(decl)}`;
      const was = before.get(key);
      if (!was) {
        created.push({
          kind: 'CreateDeclaration',
          span: NO_SPAN,
          module,
          declaration: withKinds(decl, `${module}::${declarationName(decl)}`, ctx),
        });
        continue;
      }
      matched.add(key);
      const commands: ql.AlterCommand[] = [];
      const oldName = declarationName(was.decl);
      if (was.module !== module || oldName !== declarationName(decl)) {
        commands.push({
          kind: 'RenameTo',
          span: NO_SPAN,
          name: { kind: 'ObjectRef', span: NO_SPAN, module, name: declarationName(decl) },
        });
      }
      const diff = diffDeclaration(was.decl, decl, `${module}::${declarationName(decl)}`, ctx);
      if (diff === 'replace') {
        // Dropped just before it is created again: a create cannot come before the drop.
        created.push({ kind: 'DropDeclaration', span: NO_SPAN, ref: refOf(was.module, was.decl) });
        created.push({
          kind: 'CreateDeclaration',
          span: NO_SPAN,
          module,
          declaration: withKinds(decl, `${module}::${declarationName(decl)}`, ctx),
        });
        continue;
      }
      commands.push(...diff);
      if (commands.length > 0)
        altered.push({
          kind: 'AlterDeclaration',
          span: NO_SPAN,
          ref: refOf(was.module, was.decl),
          commands,
        });
    }
  }
  for (const [key, { module, decl }] of before) {
    if (!matched.has(key))
      dropped.push({ kind: 'DropDeclaration', span: NO_SPAN, ref: refOf(module, decl) });
  }
  for (const m of a.modules.keys())
    if (!b.modules.has(m)) dropped.push({ kind: 'DropModule', span: NO_SPAN, name: m });
  return [...out, ...created, ...altered, ...dropped];
}

/** Text that stands for a node when comparing (spans and spelling aside). */
function text(node: ql.Node | readonly ql.Node[] | null): string {
  if (node === null) return '';
  if (Array.isArray(node)) return node.map((n) => text(n)).join(', ');
  const n = node as ql.Node;
  if (
    n.kind === 'TypeName' ||
    n.kind === 'TypeOp' ||
    n.kind === 'TypeOf' ||
    n.kind === 'NamedSubtype'
  )
    return ql.printType(n as ql.TypeExpr);
  return ql.printExpression(n as ql.Expr);
}

function memberText(m: Member): string {
  return ql.printDdl([
    {
      kind: 'AlterDeclaration',
      span: NO_SPAN,
      ref: {
        kind: 'DeclarationRef',
        span: NO_SPAN,
        declKind: 'type',
        module: 'm',
        name: 'n',
        signature: null,
      },
      commands: [{ kind: 'CreateMember', span: NO_SPAN, member: m }],
    },
  ]);
}

/** `extending ...` when the bases differ. */
function extendingChange(a: readonly ql.TypeName[], b: readonly ql.TypeName[]): ql.AlterCommand[] {
  return text(a) === text(b) ? [] : [{ kind: 'SetExtending', span: NO_SPAN, bases: b }];
}

/** The commands that alter `a` into `b` (same kind and key), or 'replace' (drop, then create). */
function diffDeclaration(
  a: ql.Declaration,
  b: ql.Declaration,
  qualified: string,
  ctx: Context,
): ql.AlterCommand[] | 'replace' {
  const out: ql.AlterCommand[] = [];
  switch (b.kind) {
    case 'ObjectTypeDecl':
    case 'ScalarTypeDecl': {
      const was = a as typeof b;
      if (was.abstract !== b.abstract)
        out.push({ kind: 'SetAbstract', span: NO_SPAN, abstract: b.abstract });
      out.push(...extendingChange(was.extending, b.extending));
      break;
    }
    case 'AbstractConstraintDecl': {
      const was = a as typeof b;
      const params = (d: typeof b) => (d.params === null ? '' : ql.signatureText(d.params));
      if (params(was) !== params(b) || text(was.on) !== text(b.on)) return 'replace';
      out.push(...extendingChange(was.extending, b.extending));
      break;
    }
    case 'FunctionDecl': {
      const was = a as typeof b;
      if (was.returnModifier !== b.returnModifier || text(was.returnType) !== text(b.returnType))
        return 'replace';
      break;
    }
    case 'GlobalDecl': {
      const was = a as typeof b;
      if (was.required !== b.required)
        out.push({ kind: 'SetRequired', span: NO_SPAN, required: b.required, fill: null });
      if (was.cardinality !== b.cardinality)
        out.push({ kind: 'SetCardinality', span: NO_SPAN, cardinality: b.cardinality });
      if (text(was.target) !== text(b.target))
        out.push({ kind: 'SetType', span: NO_SPAN, type: b.target, fill: null });
      break;
    }
    case 'PointerDecl': {
      const was = a as typeof b;
      if (
        text(was.target) !== text(b.target) ||
        was.required !== b.required ||
        was.cardinality !== b.cardinality
      )
        return 'replace';
      out.push(...extendingChange(was.extending, b.extending));
      break;
    }
    case 'AnnotationDecl': {
      const was = a as typeof b;
      if (was.inheritable !== b.inheritable || text(was.extending) !== text(b.extending))
        return 'replace';
      break;
    }
    case 'AliasDecl':
    case 'PermissionDecl':
      break;
    case 'ModuleDecl':
      return 'replace';
  }
  const members = diffMembers(
    (a as { members: readonly Member[] }).members,
    (b as { members: readonly Member[] }).members,
    qualified,
    ctx,
    b.kind === 'ObjectTypeDecl',
  );
  if (members === 'replace') return 'replace';
  out.push(...members);
  return out;
}

/** The key of a member among its siblings; fields and the like by what they set. */
function keyOf(m: Member): string {
  const what = ql.memberWhat(m);
  if (what === null) {
    if (m.kind === 'SetField') return `field ${m.name}`;
    if (m.kind === 'FunctionCode') return 'using';
    return m.kind === 'Using' ? 'using' : m.kind;
  }
  return `${what === 'link' ? 'property' : what} ${ql.memberKey(m)}`;
}

function diffMembers(
  a: readonly Member[],
  b: readonly Member[],
  owner: string,
  ctx: Context,
  inType: boolean,
): ql.AlterCommand[] | 'replace' {
  const renames = inType ? ctx.pointerRenames.get(owner) : undefined;
  const before = new Map<string, Member>();
  for (const m of a) {
    let key = keyOf(m);
    if (m.kind === 'PointerDecl' && renames?.has(m.name)) key = `property ${renames.get(m.name)}`;
    before.set(key, m);
  }
  const out: ql.AlterCommand[] = [];
  const creates: ql.AlterCommand[] = [];
  const drops: ql.AlterCommand[] = [];
  const seen = new Set<string>();
  for (const m of b) {
    const key = keyOf(m);
    const was = before.get(key);
    seen.add(key);
    if (!was) {
      creates.push(...created(m, owner, ctx, inType));
      continue;
    }
    if (m.kind === 'PointerDecl' && was.kind === 'PointerDecl') {
      const commands = diffPointer(was, m, owner, ctx, inType);
      if (commands === 'replace') {
        drops.push(dropOf(was, owner, ctx));
        creates.push(...created(m, owner, ctx, inType));
      } else if (commands.length > 0) {
        out.push({ kind: 'AlterMember', span: NO_SPAN, ref: refTo(was, owner, ctx), commands });
      }
      continue;
    }
    if (memberTextOf(was) === memberTextOf(m)) continue;
    const set = setMember(was, m);
    if (set === null) {
      drops.push(dropOf(was, owner, ctx));
      creates.push(...created(m, owner, ctx, inType));
    } else if (set === 'replace') return 'replace';
    else out.push(set);
  }
  for (const [key, was] of before) {
    if (seen.has(key)) continue;
    const reset = setMember(was, null);
    if (reset === null) drops.push(dropOf(was, owner, ctx));
    else if (reset === 'replace') return 'replace';
    else out.push(reset);
  }
  return [...drops, ...out, ...creates];
}

/**
 * The command that sets a member with no name of its own (a field, a computed's expression, a
 * function's body, an on-delete action) from `was` to `now`, or resets it (`now` null); null for
 * a named member (dropped and created instead), 'replace' where nothing resets it.
 */
function setMember(was: Member, now: Member | null): ql.AlterCommand | 'replace' | null {
  switch (was.kind) {
    case 'SetField':
      return now?.kind === 'SetField'
        ? { kind: 'SetFieldCommand', span: NO_SPAN, field: now }
        : { kind: 'ResetField', span: NO_SPAN, name: was.name };
    case 'Using':
    case 'FunctionCode':
      // One key for a body: an expression (`using (...)`) or code (`using sql ...`), either way.
      if (now?.kind === 'FunctionCode') return { kind: 'SetCode', span: NO_SPAN, code: now };
      if (now?.kind === 'Using') return { kind: 'SetExpression', span: NO_SPAN, expr: now.expr };
      return was.kind === 'Using'
        ? { kind: 'SetExpression', span: NO_SPAN, expr: null }
        : 'replace';
    case 'OnTargetDelete':
    case 'OnSourceDelete':
      return {
        kind: 'SetOnDelete',
        span: NO_SPAN,
        which: was.kind === 'OnTargetDelete' ? 'target' : 'source',
        action: now?.kind === was.kind ? now : null,
      };
    default:
      return null;
  }
}

function memberTextOf(m: Member): string {
  if (m.kind === 'SetField') return `${m.name} := ${ql.printExpression(m.value)}`;
  if (m.kind === 'Using') return ql.printExpression(m.expr);
  if (m.kind === 'OnTargetDelete' || m.kind === 'OnSourceDelete') return `${m.kind} ${m.action}`;
  if (m.kind === 'FunctionCode') return `${m.language} ${m.mode} ${m.text}`;
  return memberText(m);
}

function pointerKind(p: ql.PointerDecl, owner: string, ctx: Context): 'property' | 'link' {
  return p.pointerKind ?? ctx.kindOf(owner, p.name) ?? 'property';
}

function refTo(m: Member, owner: string, ctx: Context): ql.MemberRef {
  const what =
    m.kind === 'PointerDecl'
      ? pointerKind(m, owner, ctx)
      : (ql.memberWhat(m) as ql.MemberRef['what']);
  return { kind: 'MemberRef', span: NO_SPAN, what, key: ql.memberKey(m) };
}

function dropOf(m: Member, owner: string, ctx: Context): ql.AlterCommand {
  return { kind: 'DropMember', span: NO_SPAN, ref: refTo(m, owner, ctx) };
}

/** `create` of a member; a new required pointer with a fill is created optional, then filled. */
function created(m: Member, owner: string, ctx: Context, inType: boolean): ql.AlterCommand[] {
  if (m.kind !== 'PointerDecl') return [{ kind: 'CreateMember', span: NO_SPAN, member: m }];
  const member = withPointerKinds(m, owner, ctx);
  const fill = inType ? ctx.fills.get(`${owner}.${m.name}`) : undefined;
  if (fill === undefined || m.required !== true)
    return [{ kind: 'CreateMember', span: NO_SPAN, member }];
  return [
    { kind: 'CreateMember', span: NO_SPAN, member: { ...member, required: null } },
    {
      kind: 'AlterMember',
      span: NO_SPAN,
      ref: refTo(member, owner, ctx),
      commands: [
        { kind: 'SetRequired', span: NO_SPAN, required: true, fill: ql.parseExpression(fill) },
      ],
    },
  ];
}

function diffPointer(
  a: ql.PointerDecl,
  b: ql.PointerDecl,
  owner: string,
  ctx: Context,
  inType: boolean,
): ql.AlterCommand[] | 'replace' {
  if (a.abstract !== b.abstract || a.overloaded !== b.overloaded) return 'replace';
  const out: ql.AlterCommand[] = [];
  if (a.name !== b.name)
    out.push({
      kind: 'RenameTo',
      span: NO_SPAN,
      name: { kind: 'ObjectRef', span: NO_SPAN, module: null, name: b.name },
    });
  const subject = `${owner}.${b.name}`;
  const fill = inType ? ctx.fills.get(subject) : undefined;
  const typeChanged = text(a.target) !== text(b.target);
  if (typeChanged) {
    out.push({
      kind: 'SetType',
      span: NO_SPAN,
      type: b.target,
      fill: fill === undefined ? null : ql.parseExpression(fill),
    });
  }
  if (a.required !== b.required) {
    const filled = !typeChanged && b.required === true && fill !== undefined;
    out.push({
      kind: 'SetRequired',
      span: NO_SPAN,
      required: b.required,
      fill: filled ? ql.parseExpression(fill) : null,
    });
  }
  if (a.cardinality !== b.cardinality)
    out.push({ kind: 'SetCardinality', span: NO_SPAN, cardinality: b.cardinality });
  out.push(...extendingChange(a.extending, b.extending));
  const members = diffMembers(a.members, b.members, subject, ctx, false);
  if (members === 'replace') return 'replace';
  out.push(...members);
  return out;
}

/** Pointers spelled with `property` or `link` where the model says which. */
function withPointerKinds(p: ql.PointerDecl, owner: string, ctx: Context): ql.PointerDecl {
  const pointerKind = p.pointerKind ?? ctx.kindOf(owner, p.name) ?? null;
  return {
    ...p,
    pointerKind,
    members: p.members.map((m) =>
      m.kind === 'PointerDecl' ? { ...m, pointerKind: m.pointerKind ?? 'property' } : m,
    ),
  };
}

function withKinds(decl: ql.Declaration, qualified: string, ctx: Context): ql.Declaration {
  if (decl.kind !== 'ObjectTypeDecl') return decl;
  return {
    ...decl,
    members: decl.members.map((m) =>
      m.kind === 'PointerDecl' ? withPointerKinds(m, qualified, ctx) : m,
    ),
  };
}
