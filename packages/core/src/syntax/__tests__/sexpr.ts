/**
 * Test helper: an expression tree as a fully parenthesized s-expression, so a test states the
 * exact structure the parser built: `-2 ^ 2` is `(- (^ 2 2))`.
 */
import type { Node } from '../ast';
import { printType } from '../printer';

export function sexpr(node: Node | null): string {
  if (node === null) return '_';
  switch (node.kind) {
    case 'Constant':
      return node.scalar === 'str'
        ? `'${node.value}'`
        : node.scalar === 'bigint' || node.scalar === 'decimal'
          ? `${node.value}n`
          : node.value;
    case 'BytesConstant':
      return `b[${Array.from(node.value).join(',')}]`;
    case 'Parameter':
      return `$${node.name}`;
    case 'Anchor':
      return node.name;
    case 'ObjectRef':
      return node.module === null ? node.name : `${node.module}::${node.name}`;
    case 'Path': {
      const steps = node.steps
        .map((s) => (s.kind === 'Ptr' ? `${s.via}${s.name}` : `[is ${printType(s.type)}]`))
        .join('');
      return node.subject === null ? `(path ${steps})` : `(path ${sexpr(node.subject)} ${steps})`;
    }
    case 'BinOp':
      return `(${node.op} ${sexpr(node.left)} ${sexpr(node.right)})`;
    case 'UnaryOp':
      return `(${node.op} ${sexpr(node.operand)})`;
    case 'IsOp':
      return `(${node.negated ? 'is-not' : 'is'} ${sexpr(node.left)} ${printType(node.type)})`;
    case 'TypeCast':
      return `(cast${node.cardinality ? `-${node.cardinality}` : ''} ${printType(node.type)} ${sexpr(node.expr)})`;
    case 'IfElse':
      return `(if ${sexpr(node.condition)} ${sexpr(node.ifExpr)} ${sexpr(node.elseExpr)})`;
    case 'FunctionCall': {
      const args = [
        ...node.args.map(sexpr),
        ...node.namedArgs.map((a) => `${a.name}=${sexpr(a.value)}`),
      ];
      return `(call ${sexpr(node.func)}${args.map((a) => ` ${a}`).join('')})`;
    }
    case 'Index':
      return `(index ${sexpr(node.subject)} ${sexpr(node.index)})`;
    case 'Slice':
      return `(slice ${sexpr(node.subject)} ${sexpr(node.start)} ${sexpr(node.stop)})`;
    case 'SetLiteral':
      return `{${node.elements.map(sexpr).join(' ')}}`;
    case 'ArrayLiteral':
      return `[${node.elements.map(sexpr).join(' ')}]`;
    case 'TupleLiteral':
      return `(tuple${node.elements.map((e) => ` ${sexpr(e)}`).join('')})`;
    case 'NamedTupleLiteral':
      return `(tuple${node.elements.map((e) => ` ${e.name}=${sexpr(e.value)}`).join('')})`;
    case 'Detached':
      return `(detached ${sexpr(node.expr)})`;
    case 'GlobalRef':
      return `(global ${sexpr(node.name)})`;
    case 'Introspect':
      return `(introspect ${printType(node.type)})`;
    case 'Shape':
      return `(shape ${sexpr(node.subject)} ${node.elements.length})`;
    case 'SelectQuery':
      return `(select ${sexpr(node.result)}${node.filter ? ` filter ${sexpr(node.filter)}` : ''})`;
    default:
      return `<${node.kind}>`;
  }
}
