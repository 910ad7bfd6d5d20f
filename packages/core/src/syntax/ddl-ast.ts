/**
 * ddl-ast: the syntax tree of EdgeQL DDL, the language of migration files
 * (`create type default::Post { create required property title: std::str; };`).
 *
 * DDL here is an edit of an SDL schema: each command names a declaration or one of its members
 * and says what becomes of it. A declaration or member that is created is an SDL node (./sdl-ast),
 * printed in DDL form (`create` before each member, `set` before each field); everything else is a
 * command of this file. The commands svc writes and reads are the subset Gel's migrations use for
 * what SDL can declare, in Gel's spelling:
 *
 *     create module blog;                         drop module blog;
 *     create extension pgvector;                  drop extension pgvector;
 *     create future simple_scoping;               drop future simple_scoping;
 *     create <declaration>;                       drop <declaration ref>;
 *     alter <declaration ref> { <subcommands> };
 *
 * and inside `alter`: `rename to`, `extending A, B` / `drop extending`, `set abstract` /
 * `reset abstract`, `set required [using (fill)]` / `set optional` / `reset optionality`,
 * `set single` / `set multi` / `reset cardinality`, `set type T [using (fill)]` / `reset type`,
 * `using (expr)` / `reset expression` (a computed's expression), `set field := value` /
 * `reset field`, `on target delete ...` / `reset on target delete` (and `on source delete`),
 * `using sql '...'` (a function's body), `create <member>`, `drop <member ref>`, and
 * `alter property|link name { ... }`.
 *
 * Names in a declaration ref are qualified (`default::User`); names inside a created body are as
 * the schema wrote them, resolved in the declaration's module.
 */
import type { NodeBase } from './node-base';
import type { Expr, ObjectRef, TypeExpr, TypeName } from './expr-ast';
import type {
  Declaration,
  FunctionCode,
  ObjectTypeMember,
  OnSourceDelete,
  OnTargetDelete,
  PointerMember,
  SetField,
  UsingExtension,
} from './sdl-ast';

/** What a top-level `drop` or `alter` names. */
export type DeclarationKind =
  | 'type'
  | 'scalar type'
  | 'abstract constraint'
  | 'abstract annotation'
  | 'function'
  | 'alias'
  | 'global'
  | 'permission'
  | 'abstract link'
  | 'abstract property';

/**
 * A declaration named by a command: its kind, module and name, and for a function its parameter
 * list as printed (`(a: std::str)`), which tells overloads apart.
 */
export interface DeclarationRef extends NodeBase<'DeclarationRef'> {
  readonly declKind: DeclarationKind;
  readonly module: string;
  readonly name: string;
  readonly signature: string | null;
}

/**
 * A member named by a command (`drop constraint exclusive on (.email)`, `alter link author`):
 * what it is, and its key, the text that tells it apart from its siblings (a pointer's or
 * policy's name, a constraint's or index's head as printed, a rewrite's kinds).
 */
export interface MemberRef extends NodeBase<'MemberRef'> {
  readonly what:
    | 'property'
    | 'link'
    | 'constraint'
    | 'index'
    | 'access policy'
    | 'trigger'
    | 'rewrite'
    | 'annotation';
  readonly key: string;
}

export interface CreateModule extends NodeBase<'CreateModule'> {
  readonly name: string;
}
export interface DropModule extends NodeBase<'DropModule'> {
  readonly name: string;
}
export interface CreateExtension extends NodeBase<'CreateExtension'> {
  readonly extension: UsingExtension;
}
export interface DropExtension extends NodeBase<'DropExtension'> {
  readonly name: string;
}
export interface CreateFuture extends NodeBase<'CreateFuture'> {
  readonly name: string;
}
export interface DropFuture extends NodeBase<'DropFuture'> {
  readonly name: string;
}

/** `create <declaration>`: `declaration`'s own name is unqualified; `module` is where it goes. */
export interface CreateDeclaration extends NodeBase<'CreateDeclaration'> {
  readonly module: string;
  readonly declaration: Declaration;
}
export interface DropDeclaration extends NodeBase<'DropDeclaration'> {
  readonly ref: DeclarationRef;
}
export interface AlterDeclaration extends NodeBase<'AlterDeclaration'> {
  readonly ref: DeclarationRef;
  readonly commands: readonly AlterCommand[];
}

export type DdlCommand =
  | CreateModule
  | DropModule
  | CreateExtension
  | DropExtension
  | CreateFuture
  | DropFuture
  | CreateDeclaration
  | DropDeclaration
  | AlterDeclaration;

// ---------------------------------------------------------------------------------------------
// Inside `alter`

/** `rename to name`: a declaration's new name (qualified), or a pointer's. */
export interface RenameTo extends NodeBase<'RenameTo'> {
  readonly name: ObjectRef;
}
/** `set abstract` / `reset abstract`. */
export interface SetAbstract extends NodeBase<'SetAbstract'> {
  readonly abstract: boolean;
}
/** `extending A, B`; no bases is `drop extending`. */
export interface SetExtending extends NodeBase<'SetExtending'> {
  readonly bases: readonly TypeName[];
}
/**
 * `set required [using (fill)]`, `set optional`, `reset optionality` (null: as declared by what it
 * overloads). The fill gives existing objects a value.
 */
export interface SetRequired extends NodeBase<'SetRequired'> {
  readonly required: boolean | null;
  readonly fill: Expr | null;
}
/** `set single`, `set multi`, `reset cardinality`. */
export interface SetCardinality extends NodeBase<'SetCardinality'> {
  readonly cardinality: 'single' | 'multi' | null;
}
/** `set type T [using (fill)]` (the fill converts each stored value), `reset type`. */
export interface SetType extends NodeBase<'SetType'> {
  readonly type: TypeExpr | null;
  readonly fill: Expr | null;
}
/** `using (expr)`: a computed's expression; `reset expression` (null) makes it stored again. */
export interface SetExpression extends NodeBase<'SetExpression'> {
  readonly expr: Expr | null;
}
/** `set name := value`. */
export interface SetFieldCommand extends NodeBase<'SetFieldCommand'> {
  readonly field: SetField;
}
/** `reset name`. */
export interface ResetField extends NodeBase<'ResetField'> {
  readonly name: string;
}
/** `on target delete allow` (and `on source delete`); `reset on target delete` is `which` alone. */
export interface SetOnDelete extends NodeBase<'SetOnDelete'> {
  readonly which: 'target' | 'source';
  readonly action: OnTargetDelete | OnSourceDelete | null;
}
/** `using sql '...'`: a function's body. */
export interface SetCode extends NodeBase<'SetCode'> {
  readonly code: FunctionCode;
}
/** What a declaration's block holds. */
export type BlockMember = ObjectTypeMember | PointerMember | FunctionCode;

/** `create <member>`. */
export interface CreateMember extends NodeBase<'CreateMember'> {
  readonly member: BlockMember;
}
/** `drop <member ref>`. */
export interface DropMember extends NodeBase<'DropMember'> {
  readonly ref: MemberRef;
}
/** `alter property|link name { ... }`. */
export interface AlterMember extends NodeBase<'AlterMember'> {
  readonly ref: MemberRef;
  readonly commands: readonly AlterCommand[];
}

export type AlterCommand =
  | RenameTo
  | SetAbstract
  | SetExtending
  | SetRequired
  | SetCardinality
  | SetType
  | SetExpression
  | SetFieldCommand
  | ResetField
  | SetOnDelete
  | SetCode
  | CreateMember
  | DropMember
  | AlterMember;
