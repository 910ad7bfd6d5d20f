/**
 * ddl/apply: a schema and DDL commands → the schema they make, and what the commands say that
 * two schemas cannot (MigrationHints: the renames, and the fills of `set required using (...)` and
 * `set type T using (...)`). This is how a migration file is read: its DDL applied to the schema
 * of the migration before it gives the schema it migrates to, which the planner then migrates
 * to as it does any schema.
 *
 * Errors: MigrationError naming the command's line (`line 4: alter type default::Post: there is
 * no such type`) for a command that names something the schema does not have, or creates what it
 * already has.
 * Pure.
 */
import { MigrationError } from '../../errors';
import type { MigrationHints, MigrationRename } from '../../model/migration';
import * as ql from '../../syntax';
import {
  copyDraft,
  declarationKey,
  fromDraft,
  normalizePointer,
  refKey,
  refOf,
  toDraft,
  using,
  type Draft,
} from './draft';

export interface AppliedDdl {
  readonly schema: ql.Schema;
  readonly hints: Required<MigrationHints>;
}

type Member = ql.BlockMember;

interface Context {
  readonly renames: MigrationRename[];
  readonly fills: Record<string, string>;
}

/** `commands` applied to `schema`. */
export function applyDdl(schema: ql.Schema, commands: readonly ql.DdlCommand[]): AppliedDdl {
  const draft = copyDraft(toDraft(schema));
  const ctx: Context = { renames: [], fills: {} };
  for (const c of commands) applyCommand(draft, c, ctx);
  return { schema: fromDraft(draft), hints: { renames: ctx.renames, fills: ctx.fills } };
}

function fail(node: { span: ql.Span }, message: string): never {
  const line = node.span.start.line;
  throw new MigrationError(line > 0 ? `line ${line}: ${message}` : message);
}

function applyCommand(draft: Draft, c: ql.DdlCommand, ctx: Context): void {
  switch (c.kind) {
    case 'CreateModule':
      if (draft.modules.has(c.name)) fail(c, `module ${c.name} already exists`);
      draft.modules.set(c.name, []);
      return;
    case 'DropModule': {
      const decls = draft.modules.get(c.name);
      if (!decls) fail(c, `there is no module ${c.name}`);
      if (decls.length > 0) fail(c, `module ${c.name} is not empty: drop what it declares first`);
      draft.modules.delete(c.name);
      return;
    }
    case 'CreateExtension':
      if (draft.extensions.some((e) => e.name === c.extension.name))
        fail(c, `extension ${c.extension.name} is already used`);
      draft.extensions.push(c.extension);
      return;
    case 'DropExtension': {
      const at = draft.extensions.findIndex((e) => e.name === c.name);
      if (at < 0) fail(c, `extension ${c.name} is not used`);
      draft.extensions.splice(at, 1);
      return;
    }
    case 'CreateFuture':
      if (draft.futures.includes(c.name)) fail(c, `future ${c.name} is already on`);
      draft.futures.push(c.name);
      return;
    case 'DropFuture': {
      const at = draft.futures.indexOf(c.name);
      if (at < 0) fail(c, `future ${c.name} is not on`);
      draft.futures.splice(at, 1);
      return;
    }
    case 'CreateDeclaration': {
      const decls = draft.modules.get(c.module);
      if (!decls) fail(c, `there is no module ${c.module}: create module ${c.module} first`);
      const decl = normalizeDeclaration(c.declaration);
      const key = declarationKey(decl);
      if (decls.some((d) => declarationKey(d) === key))
        fail(c, `${ql.declarationRefText(refOf(c.module, decl))} already exists`);
      decls.push(decl);
      return;
    }
    case 'DropDeclaration': {
      const [decls, at] = find(draft, c.ref);
      decls.splice(at, 1);
      return;
    }
    case 'AlterDeclaration': {
      const [decls, at] = find(draft, c.ref);
      let module = c.ref.module;
      let decl = decls[at] as ql.Declaration;
      decls.splice(at, 1);
      for (const sub of c.commands) {
        if (sub.kind === 'RenameTo') {
          const to = sub.name.module ?? module;
          const from = `${module}::${c.ref.name}`;
          decl = renamed(decl, sub.name.name, sub);
          if (decl.kind === 'ObjectTypeDecl')
            ctx.renames.push({ kind: 'type', from, to: `${to}::${sub.name.name}` });
          module = to;
          continue;
        }
        decl = alterDeclaration(decl, sub, `${module}::${nameOf(decl)}`, ctx);
      }
      const into = draft.modules.get(module);
      if (!into) fail(c, `there is no module ${module}`);
      const key = declarationKey(decl);
      if (into.some((d) => declarationKey(d) === key))
        fail(c, `${ql.declarationRefText(refOf(module, decl))} already exists`);
      if (module === c.ref.module) into.splice(at, 0, decl);
      else into.push(decl);
      return;
    }
  }
}

function nameOf(decl: ql.Declaration): string {
  return decl.kind === 'PointerDecl' || decl.kind === 'ModuleDecl' ? decl.name : decl.name.name;
}

function find(draft: Draft, ref: ql.DeclarationRef): [ql.Declaration[], number] {
  const decls = draft.modules.get(ref.module);
  const key = refKey(ref);
  const at = decls?.findIndex((d) => declarationKey(d) === key) ?? -1;
  if (!decls || at < 0)
    fail(ref, `${ql.declarationRefText(ref)}: there is no such ${ref.declKind}`);
  return [decls, at];
}

function normalizeDeclaration(decl: ql.Declaration): ql.Declaration {
  // The same normal form as toDraft gives (computed expressions as `using` members).
  const schema: ql.Schema = {
    kind: 'Schema',
    span: decl.span,
    extensions: [],
    futures: [],
    modules: [
      { kind: 'ModuleDecl', span: decl.span, name: 'm', implicit: false, declarations: [decl] },
    ],
  };
  return toDraft(schema).modules.get('m')?.[0] as ql.Declaration;
}

function renamed(decl: ql.Declaration, name: string, at: { span: ql.Span }): ql.Declaration {
  if (decl.kind === 'PointerDecl') return { ...decl, name };
  if (decl.kind === 'ModuleDecl') return fail(at, 'a module is not renamed');
  return { ...decl, name: { ...decl.name, name } } as ql.Declaration;
}

/** One `alter` subcommand on a top-level declaration named `qualified`. */
function alterDeclaration(
  decl: ql.Declaration,
  c: ql.AlterCommand,
  qualified: string,
  ctx: Context,
): ql.Declaration {
  const what = `${qualified}`;
  switch (c.kind) {
    case 'SetAbstract':
      if (decl.kind !== 'ObjectTypeDecl' && decl.kind !== 'ScalarTypeDecl')
        return fail(c, `${what}: only a type is made abstract`);
      return { ...decl, abstract: c.abstract };
    case 'SetExtending':
      if (
        decl.kind === 'ObjectTypeDecl' ||
        decl.kind === 'ScalarTypeDecl' ||
        decl.kind === 'AnnotationDecl' ||
        decl.kind === 'AbstractConstraintDecl' ||
        decl.kind === 'PointerDecl'
      )
        return { ...decl, extending: c.bases } as ql.Declaration;
      return fail(c, `${what} extends nothing`);
    case 'SetRequired':
    case 'SetCardinality':
    case 'SetType':
      if (decl.kind === 'GlobalDecl') return alterGlobal(decl, c);
      return fail(
        c,
        `${what}: \`${c.kind === 'SetType' ? 'set type' : 'set required'}\` is for a global, property or link`,
      );
    case 'SetExpression':
      if (decl.kind === 'FunctionDecl') {
        const members = decl.members.filter((m) => m.kind !== 'Using' && m.kind !== 'FunctionCode');
        if (c.expr === null) return fail(c, `${what}: a function keeps its body`);
        return { ...decl, members: [using(c.expr), ...members] };
      }
      return withMembers(decl, setExpression(membersOf(decl, c), c), c);
    case 'SetCode': {
      if (decl.kind !== 'FunctionDecl') return fail(c, `${what}: only a function has code`);
      const members = decl.members.filter((m) => m.kind !== 'Using' && m.kind !== 'FunctionCode');
      return { ...decl, members: [c.code, ...members] };
    }
    case 'AlterMember':
      if (decl.kind === 'ObjectTypeDecl') {
        return {
          ...decl,
          members: alterPointerIn(decl.members, c, qualified, ctx, true) as ql.ObjectTypeMember[],
        };
      }
      return withMembers(decl, alterPointerIn(membersOf(decl, c), c, qualified, ctx, false), c);
    default:
      return withMembers(decl, editMembers(membersOf(decl, c), c, qualified), c);
  }
}

function alterGlobal(
  decl: ql.GlobalDecl,
  c: ql.SetRequired | ql.SetCardinality | ql.SetType,
): ql.GlobalDecl {
  if (c.kind === 'SetRequired') return { ...decl, required: c.required };
  if (c.kind === 'SetCardinality') return { ...decl, cardinality: c.cardinality };
  return { ...decl, target: c.type };
}

function membersOf(decl: ql.Declaration, at: { span: ql.Span }): readonly Member[] {
  if (decl.kind === 'ModuleDecl') return fail(at, 'a module has no members');
  return decl.members as readonly Member[];
}

function withMembers(
  decl: ql.Declaration,
  members: readonly Member[],
  at: { span: ql.Span },
): ql.Declaration {
  if (decl.kind === 'ModuleDecl') return fail(at, 'a module has no members');
  return { ...decl, members } as ql.Declaration;
}

function setExpression(members: readonly Member[], c: ql.SetExpression): Member[] {
  const rest = members.filter((m) => m.kind !== 'Using');
  return c.expr === null ? rest : [using(c.expr), ...rest];
}

/** The member edits common to every block: fields, on-delete, create and drop. */
function editMembers(members: readonly Member[], c: ql.AlterCommand, owner: string): Member[] {
  switch (c.kind) {
    case 'SetFieldCommand': {
      const at = members.findIndex((m) => m.kind === 'SetField' && m.name === c.field.name);
      const out = [...members];
      if (at < 0) out.push(c.field);
      else out[at] = c.field;
      return out;
    }
    case 'ResetField': {
      const out = members.filter((m) => !(m.kind === 'SetField' && m.name === c.name));
      if (out.length === members.length) fail(c, `${owner}: ${c.name} is not set`);
      return out;
    }
    case 'SetOnDelete': {
      const kind = c.which === 'target' ? 'OnTargetDelete' : 'OnSourceDelete';
      const out = members.filter((m) => m.kind !== kind);
      if (c.action !== null) out.push(c.action);
      return out;
    }
    case 'SetExpression':
      return setExpression(members, c);
    case 'CreateMember': {
      const member = c.member.kind === 'PointerDecl' ? normalizePointer(c.member) : c.member;
      const what = ql.memberWhat(member);
      const key = ql.memberKey(member);
      if (members.some((m) => sameMember(m, what, key)))
        fail(c, `${owner}: ${what} ${key} already exists`);
      return [...members, member];
    }
    case 'DropMember': {
      const at = members.findIndex((m) => sameMember(m, c.ref.what, c.ref.key));
      if (at < 0) fail(c, `${owner}: there is no ${c.ref.what} ${c.ref.key}`);
      return members.filter((_, i) => i !== at);
    }
    default:
      return fail(c, `${owner}: this command does not apply here`);
  }
}

function sameMember(m: Member, what: ql.MemberRef['what'] | null, key: string): boolean {
  const mine = ql.memberWhat(m);
  if (mine === null || what === null) return false;
  const pointer = (w: string) => w === 'property' || w === 'link';
  if (!(mine === what || (pointer(mine) && pointer(what)))) return false;
  return ql.memberKey(m) === key;
}

/**
 * `alter property|link name { ... }` among `members`; `owner` is the qualified type (or pointer)
 * they belong to; `inType` when they are a type's (their renames and fills are hints).
 */
function alterPointerIn(
  members: readonly Member[],
  c: ql.AlterMember,
  owner: string,
  ctx: Context,
  inType: boolean,
): Member[] {
  const at = members.findIndex((m) => m.kind === 'PointerDecl' && m.name === c.ref.key);
  if (at < 0) return fail(c, `${owner}: there is no ${c.ref.what} ${c.ref.key}`);
  let p = members[at] as ql.PointerDecl;
  for (const sub of c.commands) {
    const subject = `${owner}.${p.name}`;
    switch (sub.kind) {
      case 'RenameTo':
        if (sub.name.module !== null)
          fail(sub, `${subject}: a pointer's new name is not qualified`);
        if (
          members.some((m, i) => i !== at && m.kind === 'PointerDecl' && m.name === sub.name.name)
        )
          fail(sub, `${owner}: ${sub.name.name} already exists`);
        if (inType && !p.overloaded)
          ctx.renames.push({ kind: 'pointer', type: owner, from: p.name, to: sub.name.name });
        p = { ...p, name: sub.name.name };
        break;
      case 'SetRequired':
        p = { ...p, required: sub.required };
        if (inType && sub.fill !== null) ctx.fills[subject] = ql.printExpression(sub.fill);
        break;
      case 'SetCardinality':
        p = { ...p, cardinality: sub.cardinality };
        break;
      case 'SetType':
        p = { ...p, target: sub.type };
        if (inType && sub.fill !== null) ctx.fills[subject] = ql.printExpression(sub.fill);
        break;
      case 'SetExtending':
        p = { ...p, extending: sub.bases };
        break;
      case 'AlterMember':
        p = {
          ...p,
          members: alterPointerIn(p.members, sub, subject, ctx, false) as ql.PointerMember[],
        };
        break;
      default:
        p = { ...p, members: editMembers(p.members, sub, subject) as ql.PointerMember[] };
    }
  }
  const out = [...members];
  out[at] = p;
  return out;
}
