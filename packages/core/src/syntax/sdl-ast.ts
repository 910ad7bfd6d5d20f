/**
 * sdl-ast: the syntax tree of SDL schemas — modules and their declarations (./ast is the entry
 * that also holds the EdgeQL nodes, the node union and `create`).
 */
import type { NodeBase } from './node-base';
import type { Expr, NamedArg, ObjectRef, TypeExpr, TypeName } from './expr-ast';

// ---------------------------------------------------------------------------------------------
// SDL

/** `name := value` inside a declaration block: `default := 0`, `errmessage := '...'`. */
export interface SetField extends NodeBase<'SetField'> {
  readonly name: string;
  readonly value: Expr;
}

/** `annotation title := '...'`. */
export interface AnnotationValue extends NodeBase<'AnnotationValue'> {
  readonly name: ObjectRef;
  readonly value: Expr;
}

/** `using (expr)` inside a block: the expression of a computed pointer, alias, or constraint. */
export interface Using extends NodeBase<'Using'> {
  readonly expr: Expr;
}

/** `on target delete restrict|delete source|allow|deferred restrict`. */
export interface OnTargetDelete extends NodeBase<'OnTargetDelete'> {
  readonly action: 'restrict' | 'delete source' | 'allow' | 'deferred restrict';
}

/** `on source delete delete target|allow|delete target if orphan`. */
export interface OnSourceDelete extends NodeBase<'OnSourceDelete'> {
  readonly action: 'delete target' | 'allow' | 'delete target if orphan';
}

/** `[delegated] constraint name[(args)] [on (expr)] [except (expr)] [{...}]`. */
export interface ConcreteConstraint extends NodeBase<'ConcreteConstraint'> {
  readonly name: ObjectRef;
  readonly delegated: boolean;
  readonly args: readonly Expr[];
  readonly on: Expr | null;
  readonly except: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `[deferred] index [name[(named args)]] on (expr) [except (expr)] [{...}]`. */
export interface ConcreteIndex extends NodeBase<'ConcreteIndex'> {
  readonly name: ObjectRef | null;
  readonly deferred: boolean;
  readonly args: readonly NamedArg[];
  readonly on: Expr;
  readonly except: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

export type AccessKind =
  | 'all'
  | 'select'
  | 'insert'
  | 'delete'
  | 'update'
  | 'update read'
  | 'update write';

/** `access policy name [when (c)] allow|deny kinds [using (e)] [{ errmessage := ... }]`. */
export interface AccessPolicy extends NodeBase<'AccessPolicy'> {
  readonly name: string;
  readonly when: Expr | null;
  readonly action: 'allow' | 'deny';
  readonly kinds: readonly AccessKind[];
  readonly using: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `trigger name after insert, update for each [when (c)] do (expr)`. */
export interface Trigger extends NodeBase<'Trigger'> {
  readonly name: string;
  readonly timing: 'after' | 'after commit of';
  readonly kinds: readonly ('insert' | 'update' | 'delete')[];
  readonly scope: 'each' | 'all';
  readonly when: Expr | null;
  readonly expr: Expr;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `rewrite insert, update using (expr)`. */
export interface Rewrite extends NodeBase<'Rewrite'> {
  readonly kinds: readonly ('insert' | 'update')[];
  readonly expr: Expr;
  readonly members: readonly (SetField | AnnotationValue)[];
}

export type PointerMember =
  | SetField
  | AnnotationValue
  | Using
  | ConcreteConstraint
  | ConcreteIndex
  | OnTargetDelete
  | OnSourceDelete
  | Rewrite
  | PointerDecl;

/**
 * A property or link. `pointerKind` is null for the current syntax without a keyword
 * (`name: str`), whose kind is known only once the target type is resolved.
 * `target` is null for a computed pointer (`computed` or a `using` member) and for an
 * `overloaded` one that keeps its inherited type.
 */
export interface PointerDecl extends NodeBase<'PointerDecl'> {
  readonly pointerKind: 'property' | 'link' | null;
  readonly name: string;
  readonly abstract: boolean;
  readonly overloaded: boolean;
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly extending: readonly TypeName[];
  readonly target: TypeExpr | null;
  /** `name := expr`. */
  readonly computed: Expr | null;
  readonly members: readonly PointerMember[];
}

export type ObjectTypeMember =
  | PointerDecl
  | ConcreteConstraint
  | ConcreteIndex
  | AccessPolicy
  | Trigger
  | AnnotationValue;

/** `[abstract] type Name [extending A, B] { ... }`. */
export interface ObjectTypeDecl extends NodeBase<'ObjectTypeDecl'> {
  readonly name: ObjectRef;
  readonly abstract: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly ObjectTypeMember[];
}

/** `[abstract] scalar type Name [extending str] { constraint ...; }`. */
export interface ScalarTypeDecl extends NodeBase<'ScalarTypeDecl'> {
  readonly name: ObjectRef;
  readonly abstract: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly (SetField | AnnotationValue | ConcreteConstraint)[];
}

/** `abstract [inheritable] annotation name`. */
export interface AnnotationDecl extends NodeBase<'AnnotationDecl'> {
  readonly name: ObjectRef;
  readonly inheritable: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** A function or abstract-constraint parameter: `[variadic|named only] name: [set of|optional] T [= default]`. */
export interface FuncParam extends NodeBase<'FuncParam'> {
  readonly name: string;
  readonly paramKind: 'positional' | 'variadic' | 'named only';
  readonly typeModifier: 'set of' | 'optional' | null;
  readonly type: TypeExpr;
  readonly default: Expr | null;
}

/** `abstract constraint name[(params)] [on (expr)] [extending ...] { using (...); ... }`. */
export interface AbstractConstraintDecl extends NodeBase<'AbstractConstraintDecl'> {
  readonly name: ObjectRef;
  readonly params: readonly FuncParam[] | null;
  readonly on: Expr | null;
  readonly extending: readonly TypeName[];
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `using sql $$...$$`, `using sql function 'name'`, `using sql expression`. */
export interface FunctionCode extends NodeBase<'FunctionCode'> {
  readonly language: string;
  readonly mode: 'code' | 'function' | 'expression';
  readonly text: string | null;
}

/** `function name(params) -> [set of|optional] T { using (...); volatility := '...'; }`. */
export interface FunctionDecl extends NodeBase<'FunctionDecl'> {
  readonly name: ObjectRef;
  readonly params: readonly FuncParam[];
  readonly returnModifier: 'set of' | 'optional' | null;
  readonly returnType: TypeExpr;
  readonly members: readonly (Using | FunctionCode | SetField | AnnotationValue)[];
}

/** `alias Name := expr` or `alias Name { using (expr); annotation ...; }`. */
export interface AliasDecl extends NodeBase<'AliasDecl'> {
  readonly name: ObjectRef;
  readonly expr: Expr | null;
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `[required] [single|multi] global name: T [{ default := ... }]` or `global name := expr`. */
export interface GlobalDecl extends NodeBase<'GlobalDecl'> {
  readonly name: ObjectRef;
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly target: TypeExpr | null;
  readonly computed: Expr | null;
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `permission name [{ annotation ... }]`. */
export interface PermissionDecl extends NodeBase<'PermissionDecl'> {
  readonly name: ObjectRef;
  readonly members: readonly AnnotationValue[];
}

/**
 * `module name { ... }`. Declarations outside any module block are gathered into `implicit`
 * modules named `default` (one per run of consecutive bare declarations). A declaration name may
 * be qualified only outside module blocks (`type other::Foo`); a later pass resolves it.
 */
export interface ModuleDecl extends NodeBase<'ModuleDecl'> {
  readonly name: string;
  readonly implicit: boolean;
  readonly declarations: readonly Declaration[];
}

export type Declaration =
  | ModuleDecl
  | ObjectTypeDecl
  | ScalarTypeDecl
  | AnnotationDecl
  | AbstractConstraintDecl
  | PointerDecl
  | FunctionDecl
  | AliasDecl
  | GlobalDecl
  | PermissionDecl;

/** `using extension name [version '1.0'];` */
export interface UsingExtension extends NodeBase<'UsingExtension'> {
  readonly name: string;
  readonly version: string | null;
}

/** `using future name;` */
export interface UsingFuture extends NodeBase<'UsingFuture'> {
  readonly name: string;
}

/** A whole SDL document. */
export interface Schema extends NodeBase<'Schema'> {
  readonly extensions: readonly UsingExtension[];
  readonly futures: readonly UsingFuture[];
  readonly modules: readonly ModuleDecl[];
}
