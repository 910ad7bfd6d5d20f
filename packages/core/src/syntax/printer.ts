/**
 * printer: AST → canonical EdgeQL / SDL text.
 *
 * Queries print on one line with lower-case keywords; SDL prints one declaration per line,
 * indented by four spaces. A tree deeper than MAX_NESTING_DEPTH (./depth) is refused with a
 * syntax error, never a stack overflow. Parentheses are added exactly where the precedence table
 * (./precedence) requires them, and nested queries are always parenthesized, so parsing the
 * printed text gives back the same tree (spans aside) — the property test checks this.
 */
import type {
  AccessPolicy,
  ConcreteConstraint,
  ConcreteIndex,
  Declaration,
  Expr,
  FuncParam,
  GroupingAtom,
  GroupingElement,
  GroupingIdent,
  ModuleDecl,
  Node,
  Path,
  PointerDecl,
  Query,
  Schema,
  ShapeElement,
  ShapePathStep,
  SortExpr,
  Statement,
  TypeExpr,
  TypeSubtype,
  WithItem,
} from './ast';
import { isQuery } from './ast';
import { EdgeQLSyntaxError, SchemaSyntaxError } from '../errors';
import { checkNestingDepth } from './depth';
import {
  BINARY_OPERATORS,
  IF_ELSE_OPERATOR,
  IS_OPERATOR,
  Precedence,
  UNARY_OPERATORS,
} from './precedence';
import { bytes, constant, ident, moduleName, objectRef, parameter, ptrName, str } from './quote';

export { quoteIdent, quoteName, str } from './quote';

// =============================================================================================
// Entry points

/** Statements as a script: each ends with `;`, one per line. */
export function printQuery(statements: Statement | readonly Statement[]): string {
  checkNestingDepth(statements, EdgeQLSyntaxError);
  const list: readonly Statement[] = Array.isArray(statements)
    ? statements
    : [statements as Statement];
  return list.map((s) => `${printStatement(s)};`).join('\n');
}

/** One expression or query, without a trailing `;`. */
export function printExpression(expr: Expr): string {
  checkNestingDepth(expr, EdgeQLSyntaxError);
  return isQuery(expr) ? query(expr) : expression(expr, Precedence.lowest);
}

/** A type expression: `array<str>`, `A | B`. */
export function printType(type: TypeExpr): string {
  checkNestingDepth(type, EdgeQLSyntaxError);
  return typeExpr(type, false);
}

/** A whole SDL document. */
export function printSchema(schema: Schema): string {
  checkNestingDepth(schema, SchemaSyntaxError);
  const blocks: string[] = [];
  for (const ext of schema.extensions) {
    blocks.push(
      `using extension ${ident(ext.name)}${ext.version === null ? '' : ` version ${str(ext.version)}`};`,
    );
  }
  for (const future of schema.futures) blocks.push(`using future ${ident(future.name)};`);
  for (const module of schema.modules) {
    if (module.implicit) {
      for (const decl of module.declarations) blocks.push(declaration(decl, ''));
    } else {
      blocks.push(moduleBlock(module, ''));
    }
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

function printStatement(statement: Statement): string {
  if (statement.kind === 'IfElse') {
    return `if ${expression(statement.condition, 0)} then ${expression(statement.ifExpr, 0)} else ${expression(statement.elseExpr, IF_ELSE_OPERATOR.precedence)}`;
  }
  return query(statement);
}

// =============================================================================================
// Expressions

/** How tightly a node binds; it needs parentheses where less than the context requires. */
function bindingPower(node: Expr): number {
  switch (node.kind) {
    case 'Constant':
      return node.value.startsWith('-') ? Precedence.unary : Precedence.atom;
    case 'BinOp':
      return BINARY_OPERATORS[node.op].precedence;
    case 'UnaryOp':
      return UNARY_OPERATORS[node.op];
    case 'IsOp':
      return IS_OPERATOR.precedence;
    case 'TypeCast':
      return Precedence.typecast;
    case 'IfElse':
      return IF_ELSE_OPERATOR.precedence;
    case 'Detached':
      return Precedence.detached;
    case 'GlobalRef':
      return Precedence.global;
    case 'Introspect':
      return Precedence.introspect;
    case 'Path':
      return Precedence.dot;
    case 'Index':
    case 'Slice':
      return Precedence.bracket;
    case 'Shape':
      return node.subject === null ? Precedence.atom : Precedence.shape;
    case 'SelectQuery':
    case 'InsertQuery':
    case 'UpdateQuery':
    case 'DeleteQuery':
    case 'ForQuery':
    case 'GroupQuery':
    case 'InternalGroupQuery':
      return -1;
    default:
      return Precedence.atom;
  }
}

function expression(node: Expr, minPrecedence: number): string {
  const text = render(node);
  return bindingPower(node) < minPrecedence ? `(${text})` : text;
}

/**
 * The subject of a path, index, slice or shape: anything looser than a postfix form is
 * parenthesized, and so is a trailing number (`1.x` would lex as a malformed float).
 */
function subject(node: Expr): string {
  if (endsWithNumber(node)) return `(${render(node)})`;
  return expression(node, Precedence.shape);
}

function endsWithNumber(node: Expr): boolean {
  if (node.kind === 'Constant') return node.scalar !== 'str' && node.scalar !== 'bool';
  return node.kind === 'Detached' && endsWithNumber(node.expr);
}

/** A value in a `GenExpr` position (list element, argument, shape value): any expression. */
function value(node: Expr): string {
  return expression(node, Precedence.lowest);
}

function render(node: Expr): string {
  switch (node.kind) {
    case 'Constant':
      return constant(node);
    case 'BytesConstant':
      return bytes(node);
    case 'Parameter':
      return parameter(node.name);
    case 'Anchor':
      return node.name;
    case 'ObjectRef':
      return objectRef(node);
    case 'Path':
      return path(node);
    case 'Shape':
      return node.subject === null
        ? shapeBody(node.elements)
        : `${subject(node.subject)} ${shapeBody(node.elements)}`;
    case 'BinOp': {
      const { precedence, assoc } = BINARY_OPERATORS[node.op];
      const left = expression(node.left, assoc === 'left' ? precedence : precedence + 1);
      const right = expression(node.right, assoc === 'right' ? precedence : precedence + 1);
      return `${left} ${node.op} ${right}`;
    }
    case 'UnaryOp': {
      const operand = expression(node.operand, UNARY_OPERATORS[node.op]);
      if (node.op === '-' || node.op === '+') {
        const sep = operand.startsWith('-') || operand.startsWith('+') ? ' ' : '';
        return `${node.op}${sep}${operand}`;
      }
      return `${node.op} ${operand}`;
    }
    case 'IsOp':
      return `${expression(node.left, IS_OPERATOR.precedence + 1)} ${node.negated ? 'is not' : 'is'} ${typeExpr(node.type, true)}`;
    case 'TypeCast': {
      const card = node.cardinality === null ? '' : `${node.cardinality} `;
      return `<${card}${typeExpr(node.type, false)}>${expression(node.expr, Precedence.typecast)}`;
    }
    case 'IfElse':
      if (node.infix) {
        return `${expression(node.ifExpr, IF_ELSE_OPERATOR.precedence + 1)} if ${expression(node.condition, 0)} else ${expression(node.elseExpr, IF_ELSE_OPERATOR.precedence)}`;
      }
      return `if ${expression(node.condition, 0)} then ${expression(node.ifExpr, 0)} else ${expression(node.elseExpr, IF_ELSE_OPERATOR.precedence)}`;
    case 'FunctionCall': {
      const args = node.args.map(argument);
      for (const arg of node.namedArgs) args.push(`${ident(arg.name)} := ${argument(arg.value)}`);
      return `${objectRef(node.func)}(${args.join(', ')})`;
    }
    case 'Index':
      return `${subject(node.subject)}[${value(node.index)}]`;
    case 'Slice':
      return `${subject(node.subject)}[${node.start === null ? '' : value(node.start)}:${node.stop === null ? '' : value(node.stop)}]`;
    case 'SetLiteral':
      return `{${node.elements.map(value).join(', ')}}`;
    case 'ArrayLiteral':
      return `[${node.elements.map(value).join(', ')}]`;
    case 'TupleLiteral':
      return node.elements.length === 1
        ? `(${value(node.elements[0] as Expr)},)`
        : `(${node.elements.map(value).join(', ')})`;
    case 'NamedTupleLiteral':
      return `(${node.elements.map((el) => `${ident(el.name)} := ${value(el.value)}`).join(', ')})`;
    case 'Detached':
      return `detached ${expression(node.expr, Precedence.detached)}`;
    case 'GlobalRef':
      return `global ${objectRef(node.name)}`;
    case 'Introspect':
      return `introspect ${typeExpr(node.type, true)}`;
    default:
      return query(node);
  }
}

function path(node: Path): string {
  let out = node.subject === null ? '' : subject(node.subject);
  for (const step of node.steps) {
    out +=
      step.kind === 'Ptr'
        ? `${step.via}${ptrName(step.name)}`
        : `[is ${typeExpr(step.type, false)}]`;
  }
  return out;
}

/** A function argument: an implicit select prints as `expr filter ... order by ...`. */
function argument(node: Expr): string {
  if (node.kind === 'SelectQuery' && node.implicit) {
    return `${value(node.result)}${clauses(node.filter, node.orderBy, null, null)}`;
  }
  return value(node);
}

function shapeBody(elements: readonly ShapeElement[]): string {
  return elements.length === 0 ? '{}' : `{ ${elements.map(shapeElement).join(', ')} }`;
}

function shapeElement(el: ShapeElement): string {
  let out = '';
  if (el.required !== null) out += el.required ? 'required ' : 'optional ';
  if (el.cardinality !== null) out += `${el.cardinality} `;
  out += shapePath(el.path);
  if (el.operation !== null && el.compExpr !== null) {
    return `${out} ${el.operation} ${value(el.compExpr)}`;
  }
  if (el.elements !== null) out += `: ${shapeBody(el.elements)}`;
  return out + clauses(el.filter, el.orderBy, el.offset, el.limit);
}

function shapePath(steps: readonly ShapePathStep[]): string {
  let out = '';
  steps.forEach((step, i) => {
    switch (step.kind) {
      case 'Ptr':
        out +=
          step.via === '.' && i === 0 ? ptrName(step.name) : `${step.via}${ptrName(step.name)}`;
        break;
      case 'TypeIntersection':
        out += `[is ${typeExpr(step.type, false)}]`;
        break;
      case 'Splat': {
        const stars = step.depth === 1 ? '*' : '**';
        let prefix = '';
        if (step.type !== null) {
          prefix +=
            step.type.kind === 'TypeName' && step.type.subtypes.length === 0
              ? objectRef(step.type.name)
              : `(${typeExpr(step.type, false)})`;
        }
        if (step.intersection !== null) prefix += `[is ${typeExpr(step.intersection.type, false)}]`;
        out += prefix === '' ? stars : `${prefix}.${stars}`;
        break;
      }
    }
  });
  return out;
}

function clauses(
  filter: Expr | null,
  orderBy: readonly SortExpr[],
  offset: Expr | null,
  limit: Expr | null,
): string {
  let out = '';
  if (filter !== null) out += ` filter ${value(filter)}`;
  if (orderBy.length > 0) out += ` order by ${orderBy.map(sortExpr).join(' then ')}`;
  if (offset !== null) out += ` offset ${value(offset)}`;
  if (limit !== null) out += ` limit ${value(limit)}`;
  return out;
}

function sortExpr(node: SortExpr): string {
  let out = value(node.expr);
  if (node.direction !== null) out += ` ${node.direction}`;
  if (node.emptyOrder !== null) out += ` empty ${node.emptyOrder}`;
  return out;
}

// =============================================================================================
// Types

/** `simple`: after `is` / `introspect`, where collection types need parentheses. */
function typeExpr(node: TypeExpr, simple: boolean): string {
  switch (node.kind) {
    case 'TypeName': {
      const name =
        node.name.module === null && ['anytype', 'anytuple', 'anyobject'].includes(node.name.name)
          ? node.name.name
          : objectRef(node.name);
      if (node.subtypes.length === 0) return name;
      const text = `${name}<${node.subtypes.map(subtype).join(', ')}>`;
      return simple ? `(${text})` : text;
    }
    case 'TypeOp': {
      const level = node.op === '|' ? 1 : 2;
      const left = typeOperand(node.left, level, simple);
      const right = typeOperand(node.right, level + 1, simple);
      return `${left} ${node.op} ${right}`;
    }
    case 'TypeOf':
      // `introspect T` inside would take a following `| U` into its own type
      return `typeof ${expression(node.expr, Precedence.introspect + 1)}`;
  }
}

function typeOperand(node: TypeExpr, min: number, simple: boolean): string {
  const level = node.kind === 'TypeOp' ? (node.op === '|' ? 1 : 2) : 3;
  const text = typeExpr(node, simple);
  return level < min ? `(${text})` : text;
}

function subtype(node: TypeSubtype): string {
  if (node.kind === 'NamedSubtype') return `${ident(node.name)}: ${typeExpr(node.type, false)}`;
  return typeExpr(node, false);
}

// =============================================================================================
// Queries

function withBlock(aliases: readonly WithItem[]): string {
  if (aliases.length === 0) return '';
  const items = aliases.map((item) =>
    item.kind === 'ModuleAlias'
      ? item.alias === null
        ? `module ${moduleName(item.module)}`
        : `${ident(item.alias)} as module ${moduleName(item.module)}`
      : `${ident(item.alias)} := ${value(item.expr)}`,
  );
  return `with ${items.join(', ')} `;
}

/** A query without surrounding parentheses. */
function query(node: Query): string {
  switch (node.kind) {
    case 'SelectQuery': {
      const alias = node.resultAlias === null ? '' : `${ident(node.resultAlias)} := `;
      return `${withBlock(node.aliases)}select ${alias}${value(node.result)}${clauses(node.filter, node.orderBy, node.offset, node.limit)}`;
    }
    case 'InsertQuery': {
      let out = `${withBlock(node.aliases)}insert ${objectRef(node.subject)}`;
      if (node.shape.length > 0) out += ` ${shapeBody(node.shape)}`;
      const conflict = node.unlessConflict;
      if (conflict !== null) {
        out += ' unless conflict';
        if (conflict.on !== null) {
          out += ` on ${value(conflict.on)}`;
          if (conflict.elseExpr !== null) out += ` else ${value(conflict.elseExpr)}`;
        }
      }
      return out;
    }
    case 'UpdateQuery': {
      const filter = node.filter === null ? '' : ` filter ${value(node.filter)}`;
      return `${withBlock(node.aliases)}update ${value(node.subject)}${filter} set ${shapeBody(node.shape)}`;
    }
    case 'DeleteQuery':
      return `${withBlock(node.aliases)}delete ${value(node.subject)}${clauses(node.filter, node.orderBy, node.offset, node.limit)}`;
    case 'ForQuery': {
      const head = `${withBlock(node.aliases)}for ${node.optional ? 'optional ' : ''}${ident(node.iteratorAlias)} in ${atomic(node.iterator)}`;
      if (!node.union && isQuery(node.body)) return `${head} ${query(node.body)}`;
      return `${head} union ${value(node.body)}`;
    }
    case 'GroupQuery': {
      const alias = node.subjectAlias === null ? '' : `${ident(node.subjectAlias)} := `;
      let out = `${withBlock(node.aliases)}group ${alias}${value(node.subject)}`;
      if (node.using !== null) {
        out += ` using ${node.using.map((u) => `${ident(u.alias)} := ${value(u.expr)}`).join(', ')}`;
      }
      return `${out} by ${node.by.map(groupingElement).join(', ')}`;
    }
    case 'InternalGroupQuery': {
      const alias = node.subjectAlias === null ? '' : `${ident(node.subjectAlias)} := `;
      const using = node.using.map((u) => `${ident(u.alias)} := ${value(u.expr)}`).join(', ');
      const grouping = node.groupingAlias === null ? '' : `, ${ident(node.groupingAlias)}`;
      const result = node.resultAlias === null ? '' : `${ident(node.resultAlias)} := `;
      return (
        `${withBlock(node.aliases)}for group ${alias}${value(node.subject)} using ${using}` +
        ` by ${node.by.map(groupingElement).join(', ')} in ${ident(node.groupAlias)}${grouping}` +
        ` union ${result}${value(node.result)}${clauses(node.filter, node.orderBy, null, null)}`
      );
    }
  }
}

/** A `for` iterator must be atomic (a primary with path steps); anything else is parenthesized. */
function atomic(node: Expr): string {
  return isAtomic(node) ? render(node) : `(${render(node)})`;
}

function isAtomic(node: Expr): boolean {
  switch (node.kind) {
    case 'Constant':
      return !node.value.startsWith('-');
    case 'BytesConstant':
    case 'Parameter':
    case 'Anchor':
    case 'ObjectRef':
    case 'FunctionCall':
    case 'SetLiteral':
    case 'ArrayLiteral':
    case 'TupleLiteral':
    case 'NamedTupleLiteral':
      return true;
    case 'Shape':
      return node.subject === null;
    case 'Path':
      return node.subject === null || (isAtomic(node.subject) && node.subject.kind !== 'Constant');
    case 'TypeCast':
      return node.cardinality === null && isAtomic(node.expr);
    default:
      return false;
  }
}

function groupingElement(node: GroupingElement): string {
  switch (node.kind) {
    case 'GroupingSimple':
      return groupingAtom(node.element);
    case 'GroupingSets':
      return `{${node.sets.map(groupingElement).join(', ')}}`;
    case 'GroupingOperation':
      return `${node.op}(${node.elements.map(groupingAtom).join(', ')})`;
  }
}

function groupingAtom(node: GroupingAtom): string {
  if (node.kind === 'GroupingIdentList') return `(${node.elements.map(groupingIdent).join(', ')})`;
  return groupingIdent(node);
}

function groupingIdent(node: GroupingIdent): string {
  if (node.kind === 'ObjectRef') return ident(node.name);
  const step = node.steps[0];
  return step?.kind === 'Ptr' ? `${step.via}${ident(step.name)}` : path(node);
}

// =============================================================================================
// SDL

const INDENT = '    ';

function moduleBlock(module: ModuleDecl, indent: string): string {
  if (module.declarations.length === 0) return `${indent}module ${moduleName(module.name)} {}`;
  const inner = module.declarations.map((d) => declaration(d, indent + INDENT)).join('\n');
  return `${indent}module ${moduleName(module.name)} {\n${inner}\n${indent}}`;
}

/**
 * `head` followed by a `{ ... }` block of members, or `;` when there are none (`{}` for the
 * declarations that have no short form without members: functions and aliases).
 */
function block(
  head: string,
  members: readonly Node[],
  indent: string,
  emptyBlock = false,
  ddl = false,
): string {
  // In DDL every block is a statement and ends with `;` (`create type X { ... };`).
  const end = ddl ? ';' : '';
  if (members.length === 0) return emptyBlock ? `${indent}${head} {}${end}` : `${indent}${head};`;
  const inner = members.map((m) => member(m, indent + INDENT, ddl)).join('\n');
  return `${indent}${head} {\n${inner}\n${indent}}${end}`;
}

function extending(bases: readonly TypeExpr[]): string {
  return bases.length === 0 ? '' : ` extending ${bases.map((b) => typeExpr(b, false)).join(', ')}`;
}

function paren(node: Expr): string {
  return `(${isQuery(node) ? query(node) : expression(node, Precedence.lowest)})`;
}

function declaration(decl: Declaration, indent: string, ddl = false): string {
  switch (decl.kind) {
    case 'ModuleDecl':
      return moduleBlock(decl, indent);
    case 'ObjectTypeDecl':
      return block(
        `${decl.abstract ? 'abstract ' : ''}type ${objectRef(decl.name)}${extending(decl.extending)}`,
        decl.members,
        indent,
        false,
        ddl,
      );
    case 'ScalarTypeDecl':
      return block(
        `${decl.abstract ? 'abstract ' : ''}scalar type ${objectRef(decl.name)}${extending(decl.extending)}`,
        decl.members,
        indent,
        false,
        ddl,
      );
    case 'AnnotationDecl':
      return block(
        `abstract ${decl.inheritable ? 'inheritable ' : ''}annotation ${objectRef(decl.name)}${extending(decl.extending)}`,
        decl.members,
        indent,
        false,
        ddl,
      );
    case 'AbstractConstraintDecl': {
      const params = decl.params === null ? '' : `(${decl.params.map(funcParam).join(', ')})`;
      const on = decl.on === null ? '' : ` on ${paren(decl.on)}`;
      return block(
        `abstract constraint ${objectRef(decl.name)}${params}${on}${extending(decl.extending)}`,
        decl.members,
        indent,
        false,
        ddl,
      );
    }
    case 'PointerDecl':
      return pointer(decl, indent, ddl);
    case 'FunctionDecl': {
      const modifier = decl.returnModifier === null ? '' : `${decl.returnModifier} `;
      const head = `function ${objectRef(decl.name)}(${decl.params.map(funcParam).join(', ')}) -> ${modifier}${typeBeforeBlock(decl.returnType, true)}`;
      const only = decl.members[0];
      if (
        decl.members.length === 1 &&
        only !== undefined &&
        (only.kind === 'Using' || only.kind === 'FunctionCode')
      ) {
        return `${indent}${head} ${memberText(only)};`;
      }
      return block(head, decl.members, indent, true, ddl);
    }
    case 'AliasDecl':
      if (decl.expr !== null && decl.members.length === 0) {
        return `${indent}alias ${objectRef(decl.name)} := ${value(decl.expr)};`;
      }
      return block(
        `alias ${objectRef(decl.name)}`,
        decl.expr === null
          ? decl.members
          : ([{ kind: 'Using', span: decl.span, expr: decl.expr }, ...decl.members] as Node[]),
        indent,
        true,
        ddl,
      );
    case 'GlobalDecl': {
      const head = `${qualifiers(decl.required, decl.cardinality)}global ${objectRef(decl.name)}`;
      if (decl.computed !== null) return `${indent}${head} := ${value(decl.computed)};`;
      const target =
        decl.target === null ? '' : `: ${typeBeforeBlock(decl.target, decl.members.length > 0)}`;
      return block(`${head}${target}`, decl.members, indent, false, ddl);
    }
    case 'PermissionDecl':
      return block(`permission ${objectRef(decl.name)}`, decl.members, indent, false, ddl);
  }
}

/**
 * A type followed by a `{ ... }` block: a trailing `typeof expr` would take the block as a
 * shape, so such a type is parenthesized.
 */
function typeBeforeBlock(type: TypeExpr, hasBlock: boolean): string {
  const text = typeExpr(type, false);
  return hasBlock && endsWithTypeOf(type) ? `(${text})` : text;
}

function endsWithTypeOf(type: TypeExpr): boolean {
  if (type.kind === 'TypeOf') return true;
  return type.kind === 'TypeOp' && endsWithTypeOf(type.right);
}

function qualifiers(required: boolean | null, cardinality: 'single' | 'multi' | null): string {
  let out = '';
  if (required !== null) out += required ? 'required ' : 'optional ';
  if (cardinality !== null) out += `${cardinality} `;
  return out;
}

function pointer(decl: PointerDecl, indent: string, ddl = false): string {
  let head = decl.abstract ? 'abstract ' : '';
  if (decl.overloaded) head += 'overloaded ';
  head += qualifiers(decl.required, decl.cardinality);
  if (decl.pointerKind !== null) head += `${decl.pointerKind} `;
  head += ptrName(decl.name) + extending(decl.extending);
  if (decl.computed !== null) {
    if (decl.members.length === 0) return `${indent}${head} := ${value(decl.computed)};`;
    // A computed pointer with members: the expression moves into the block as `using`.
    return block(
      head,
      [{ kind: 'Using', span: decl.span, expr: decl.computed }, ...decl.members] as Node[],
      indent,
      false,
      ddl,
    );
  }
  if (decl.target !== null) head += `: ${typeBeforeBlock(decl.target, decl.members.length > 0)}`;
  return block(head, decl.members, indent, false, ddl);
}

/** In DDL, what comes before a member inside a created declaration. */
const DDL_MEMBER_PREFIX: Partial<Record<Node['kind'], string>> = {
  PointerDecl: 'create ',
  ConcreteConstraint: 'create ',
  ConcreteIndex: 'create ',
  AccessPolicy: 'create ',
  Trigger: 'create ',
  Rewrite: 'create ',
  AnnotationValue: 'create ',
  SetField: 'set ',
};

function member(node: Node, indent: string, ddl = false): string {
  const text = sdlMember(node, indent, ddl);
  const prefix = ddl ? DDL_MEMBER_PREFIX[node.kind] : undefined;
  return prefix === undefined ? text : `${indent}${prefix}${text.slice(indent.length)}`;
}

function sdlMember(node: Node, indent: string, ddl: boolean): string {
  switch (node.kind) {
    case 'PointerDecl':
      return pointer(node, indent, ddl);
    case 'ConcreteConstraint':
      return block(constraintHead(node), node.members, indent, false, ddl);
    case 'ConcreteIndex':
      return block(indexHead(node), node.members, indent, false, ddl);
    case 'AccessPolicy':
      return block(policyHead(node), node.members, indent, false, ddl);
    case 'Trigger': {
      const timing = node.timing;
      const when = node.when === null ? '' : ` when ${paren(node.when)}`;
      return block(
        `trigger ${ident(node.name)} ${timing} ${node.kinds.join(', ')} for ${node.scope}${when} do ${paren(node.expr)}`,
        node.members,
        indent,
        false,
        ddl,
      );
    }
    case 'Rewrite':
      return block(
        `rewrite ${node.kinds.join(', ')} using ${paren(node.expr)}`,
        node.members,
        indent,
        false,
        ddl,
      );
    default:
      return `${indent}${memberText(node)};`;
  }
}

/** A short member without its `;`. */
function memberText(node: Node): string {
  switch (node.kind) {
    case 'SetField':
      return `${ident(node.name)} := ${value(node.value)}`;
    case 'AnnotationValue':
      return `annotation ${objectRef(node.name)} := ${value(node.value)}`;
    case 'Using':
      return `using ${paren(node.expr)}`;
    case 'FunctionCode':
      if (node.mode === 'function')
        return `using ${ident(node.language)} function ${str(node.text ?? '')}`;
      if (node.mode === 'expression') return `using ${ident(node.language)} expression`;
      return `using ${ident(node.language)} ${str(node.text ?? '')}`;
    case 'OnTargetDelete':
      return `on target delete ${node.action}`;
    case 'OnSourceDelete':
      return `on source delete ${node.action}`;
    default:
      throw new TypeError(`not a short SDL member: ${node.kind}`);
  }
}

function constraintHead(node: ConcreteConstraint): string {
  let out = `${node.delegated ? 'delegated ' : ''}constraint ${objectRef(node.name)}`;
  if (node.args.length > 0) out += `(${node.args.map(argument).join(', ')})`;
  if (node.on !== null) out += ` on ${paren(node.on)}`;
  if (node.except !== null) out += ` except ${paren(node.except)}`;
  return out;
}

function indexHead(node: ConcreteIndex): string {
  let out = `${node.deferred ? 'deferred ' : ''}index`;
  if (node.name !== null) {
    out += ` ${objectRef(node.name)}`;
    if (node.args.length > 0) {
      out += `(${node.args.map((a) => `${ident(a.name)} := ${value(a.value)}`).join(', ')})`;
    }
  }
  out += ` on ${paren(node.on)}`;
  if (node.except !== null) out += ` except ${paren(node.except)}`;
  return out;
}

function policyHead(node: AccessPolicy): string {
  let out = `access policy ${ident(node.name)}`;
  if (node.when !== null) out += ` when ${paren(node.when)}`;
  out += ` ${node.action} ${node.kinds.join(', ')}`;
  if (node.using !== null) out += ` using ${paren(node.using)}`;
  return out;
}

function funcParam(node: FuncParam): string {
  let out = node.paramKind === 'positional' ? '' : `${node.paramKind} `;
  out += `${ident(node.name)}: `;
  if (node.typeModifier !== null) out += `${node.typeModifier} `;
  out += typeExpr(node.type, false);
  if (node.default !== null) out += ` = ${value(node.default)}`;
  return out;
}

/**
 * The SDL printer's parts the DDL printer (./ddl-printer) builds on; not part of the package's
 * surface. `ddl` prints a declaration's or member's body in DDL form (`create` before members,
 * `set` before fields).
 */
export const sdlParts = {
  declaration,
  member,
  memberText,
  constraintHead,
  indexHead,
  paren,
  value,
  funcParam,
  typeExpr: (type: TypeExpr): string => typeExpr(type, false),
  extending,
  INDENT,
} as const;
