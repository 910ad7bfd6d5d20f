/**
 * sql/print: SqlExpr → SQL text; the only printer of expressions.
 *
 * Input: a tree from ./ast. Output: one line of SQL.
 * Invariants: every compound operand is parenthesized (no precedence table to get wrong);
 * identifiers and values go through sql/codegen/quote; same tree, same text.
 */
import type { PgType, SqlExpr } from './ast';
import { quoteBytea, quoteIdent, quoteLiteral, quoteQualified } from './codegen/quote';

export function printType(type: PgType): string {
  const base = type.schema === null ? type.name : quoteQualified(type.schema, type.name);
  return base + '[]'.repeat(type.arrayDims);
}

/** Prints an expression; the top level is not parenthesized. */
export function printSql(expr: SqlExpr): string {
  switch (expr.kind) {
    case 'ColumnRef':
      return expr.table === null
        ? quoteIdent(expr.name)
        : `${quoteIdent(expr.table)}.${quoteIdent(expr.name)}`;
    case 'DomainValue':
      return 'VALUE';
    case 'Literal':
      switch (expr.type) {
        case 'null':
          return 'null';
        case 'bool':
        case 'number':
          return String(expr.value);
        case 'bytea':
          return quoteBytea(expr.value as Uint8Array);
        case 'text':
          return quoteLiteral(String(expr.value));
      }
      break;
    case 'FuncCall': {
      const name = expr.schema === null ? expr.name : quoteQualified(expr.schema, expr.name);
      return `${name}(${expr.args.map(printSql).join(', ')})`;
    }
    case 'BinOp':
      return `${operand(expr.left)} ${expr.op} ${operand(expr.right)}`;
    case 'UnaryOp':
      return expr.postfix
        ? `${operand(expr.operand)} ${expr.op}`
        : `${expr.op} ${operand(expr.operand)}`;
    case 'Cast':
      return `${operand(expr.expr)}::${printType(expr.type)}`;
    case 'Case': {
      const whens = expr.whens.map((w) => `when ${printSql(w.when)} then ${printSql(w.then)}`);
      const otherwise = expr.else === null ? '' : ` else ${printSql(expr.else)}`;
      return `case ${whens.join(' ')}${otherwise} end`;
    }
    case 'ArrayExpr': {
      const text = `ARRAY[${expr.elements.map(printSql).join(', ')}]`;
      return expr.type === null ? text : `${text}::${printType(expr.type)}`;
    }
    case 'RowExpr':
      return `ROW(${expr.elements.map(printSql).join(', ')})`;
    case 'Subscript':
      return `${operand(expr.expr)}[${printSql(expr.index)}]`;
    case 'Slice':
      return `${operand(expr.expr)}[${expr.lower ? printSql(expr.lower) : ''}:${expr.upper ? printSql(expr.upper) : ''}]`;
    case 'Collate':
      return `${operand(expr.expr)} COLLATE ${quoteIdent(expr.collation)}`;
    case 'InList':
      return `${operand(expr.expr)} ${expr.negated ? 'not in' : 'in'} (${expr.list.map(printSql).join(', ')})`;
    case 'AnyOp':
      return `${operand(expr.left)} ${expr.op} any(${printSql(expr.array)})`;
    case 'Paren':
      return `(${printSql(expr.expr)})`;
  }
}

/** Atoms print bare; anything with an operator is parenthesized. */
function operand(expr: SqlExpr): string {
  switch (expr.kind) {
    case 'ColumnRef':
    case 'DomainValue':
    case 'FuncCall':
    case 'ArrayExpr':
    case 'RowExpr':
    case 'Paren':
    case 'Subscript':
      return printSql(expr);
    case 'Literal':
      // A negative number binds looser than `::` in PostgreSQL: -1::text is -(1::text).
      return expr.type === 'number' && String(expr.value).startsWith('-')
        ? `(${printSql(expr)})`
        : printSql(expr);
    default:
      return `(${printSql(expr)})`;
  }
}
