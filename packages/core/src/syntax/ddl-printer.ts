/**
 * ddl-printer: DDL commands (./ddl-ast) → EdgeQL DDL text, one command per statement, four
 * spaces a level; `parseDdl(printDdl(cs))` gives `cs` back (ddl.nodb.test.ts checks it). The bodies of
 * created declarations and members are the SDL printer's, in DDL form.
 */
import type { AlterCommand, BlockMember, DdlCommand, DeclarationRef, MemberRef } from './ddl-ast';
import type { Declaration, FuncParam } from './sdl-ast';
import { sdlParts } from './printer';
import { ident, moduleName, objectRef, ptrName, str } from './quote';

/** What `reset` resets of its own: a field of one of these names is quoted. */
const RESET_WORDS = new Set(['abstract', 'optionality', 'cardinality', 'type', 'expression', 'on']);

const { INDENT } = sdlParts;

/** The commands as DDL text, each statement ending in `;` on its own line(s), at `indent`. */
export function printDdl(commands: readonly DdlCommand[], indent = ''): string {
  return commands.map((c) => command(c, indent)).join('\n');
}

/** The key that tells a member apart from its siblings (MemberRef.key). */
export function memberKey(member: BlockMember): string {
  switch (member.kind) {
    case 'PointerDecl':
    case 'AccessPolicy':
    case 'Trigger':
      return member.name;
    case 'ConcreteConstraint':
      return sdlParts.constraintHead(member).replace(/^delegated /, '');
    case 'ConcreteIndex':
      return sdlParts.indexHead(member).replace(/^deferred /, '');
    case 'Rewrite':
      return [...member.kinds].sort().join(', ');
    case 'AnnotationValue':
      return objectRef(member.name);
    default:
      return member.kind;
  }
}

/** What a member is called in `drop` and `alter` (MemberRef.what); null for fields and the like. */
export function memberWhat(
  member: BlockMember,
  pointerKind: 'property' | 'link' = 'property',
): MemberRef['what'] | null {
  switch (member.kind) {
    case 'PointerDecl':
      return member.pointerKind ?? pointerKind;
    case 'ConcreteConstraint':
      return 'constraint';
    case 'ConcreteIndex':
      return 'index';
    case 'AccessPolicy':
      return 'access policy';
    case 'Trigger':
      return 'trigger';
    case 'Rewrite':
      return 'rewrite';
    case 'AnnotationValue':
      return 'annotation';
    default:
      return null;
  }
}

/** A function's parameters as its DDL name carries them: `(a: std::str)`. */
export function signatureText(params: readonly FuncParam[]): string {
  return `(${params.map(sdlParts.funcParam).join(', ')})`;
}

/** `type default::User`, `function default::f(a: std::str)`. */
export function declarationRefText(ref: DeclarationRef): string {
  const name = `${moduleName(ref.module)}::${ident(ref.name)}`;
  return `${ref.declKind} ${name}${ref.signature ?? ''}`;
}

function command(c: DdlCommand, indent: string): string {
  switch (c.kind) {
    case 'CreateModule':
      return `${indent}create module ${moduleName(c.name)};`;
    case 'DropModule':
      return `${indent}drop module ${moduleName(c.name)};`;
    case 'CreateExtension': {
      const version = c.extension.version === null ? '' : ` version ${str(c.extension.version)}`;
      return `${indent}create extension ${ident(c.extension.name)}${version};`;
    }
    case 'DropExtension':
      return `${indent}drop extension ${ident(c.name)};`;
    case 'CreateFuture':
      return `${indent}create future ${ident(c.name)};`;
    case 'DropFuture':
      return `${indent}drop future ${ident(c.name)};`;
    case 'CreateDeclaration':
      return `${indent}create ${createdDeclaration(c.declaration, c.module, indent)}`;
    case 'DropDeclaration':
      return `${indent}drop ${declarationRefText(c.ref)};`;
    case 'AlterDeclaration':
      return alterBlock(`alter ${declarationRefText(c.ref)}`, c.commands, indent);
  }
}

/** A declaration's DDL text without the leading indent, its name qualified with `module`. */
function createdDeclaration(decl: Declaration, module: string, indent: string): string {
  const qualified = `${moduleName(module)}::`;
  let text: string;
  if (decl.kind === 'PointerDecl') {
    // An abstract pointer's name is a plain identifier in SDL; in DDL it carries its module.
    const head = `abstract ${decl.pointerKind ?? 'property'} `;
    text = sdlParts.declaration(decl, indent, true);
    const at = text.indexOf(head) + head.length;
    text = `${text.slice(0, at)}${qualified}${text.slice(at)}`;
  } else if (decl.kind === 'ModuleDecl') {
    throw new TypeError('a module is created with CreateModule');
  } else {
    const named = { ...decl, name: { ...decl.name, module } } as Declaration;
    text = sdlParts.declaration(named, indent, true);
  }
  return text.slice(indent.length);
}

function alterBlock(head: string, commands: readonly AlterCommand[], indent: string): string {
  const inner = commands.map((c) => alterCommand(c, indent + INDENT)).join('\n');
  return `${indent}${head} {\n${inner}\n${indent}};`;
}

function using(fill: AlterCommand & { fill: unknown }): string {
  return fill.fill === null ? '' : ` using ${sdlParts.paren(fill.fill as never)}`;
}

function alterCommand(c: AlterCommand, indent: string): string {
  switch (c.kind) {
    case 'RenameTo':
      return `${indent}rename to ${c.name.module === null ? ptrName(c.name.name) : objectRef(c.name)};`;
    case 'SetAbstract':
      return `${indent}${c.abstract ? 'set' : 'reset'} abstract;`;
    case 'SetExtending':
      return c.bases.length === 0
        ? `${indent}drop extending;`
        : `${indent}${sdlParts.extending(c.bases).trim()};`;
    case 'SetRequired':
      if (c.required === null) return `${indent}reset optionality;`;
      return `${indent}set ${c.required ? 'required' : 'optional'}${using(c)};`;
    case 'SetCardinality':
      return c.cardinality === null
        ? `${indent}reset cardinality;`
        : `${indent}set ${c.cardinality};`;
    case 'SetType':
      return c.type === null
        ? `${indent}reset type;`
        : `${indent}set type ${sdlParts.typeExpr(c.type)}${using(c)};`;
    case 'SetExpression':
      return c.expr === null
        ? `${indent}reset expression;`
        : `${indent}using ${sdlParts.paren(c.expr)};`;
    case 'SetFieldCommand':
      return `${indent}set ${sdlParts.memberText(c.field)};`;
    case 'ResetField':
      // A field named as a `reset` of its own (`reset type`) is quoted to stay a field.
      return `${indent}reset ${RESET_WORDS.has(c.name) ? `\`${c.name}\`` : ident(c.name)};`;
    case 'SetOnDelete':
      return c.action === null
        ? `${indent}reset on ${c.which} delete;`
        : `${indent}${sdlParts.memberText(c.action)};`;
    case 'SetCode':
      return `${indent}${sdlParts.memberText(c.code)};`;
    case 'CreateMember':
      return sdlParts.member(c.member, indent, true);
    case 'DropMember':
      return `${indent}drop ${memberRefText(c.ref)};`;
    case 'AlterMember':
      return alterBlock(`alter ${memberRefText(c.ref)}`, c.commands, indent);
  }
}

function memberRefText(ref: MemberRef): string {
  if (ref.what === 'property' || ref.what === 'link') return `${ref.what} ${ptrName(ref.key)}`;
  if (ref.what === 'access policy' || ref.what === 'trigger')
    return `${ref.what} ${ident(ref.key)}`;
  if (ref.what === 'annotation') return `annotation ${ref.key}`;
  if (ref.what === 'rewrite') return `rewrite ${ref.key}`;
  // A constraint's and an index's key is their head: `constraint exclusive on (.email)`.
  return ref.key;
}
