/**
 * sql/print: the only printer of SQL trees (./ast): expressions and whole statements.
 *
 * Input: a tree from ./ast. Output: SQL text — compact (one line, what runs) or, with
 * `{ pretty: true }`, one clause per line with nested statements indented (golden files, review).
 * Invariants: every compound operand is parenthesized (no precedence table to get wrong);
 * identifiers and values go through sql/codegen/quote; same tree, same text; compact and pretty
 * text differ only in whitespace between tokens.
 */
import type {
  ColumnAlias,
  Cte,
  FromItem,
  OnConflict,
  OrderItem,
  PgType,
  SetClause,
  SqlExpr,
  SqlQuery,
  SqlStatement,
  TableName,
  Target,
  WindowSpec,
  WithClause,
} from './ast';
import { quoteBytea, quoteIdent, quoteLiteral, quoteQualified } from './codegen/quote';

export interface PrintOptions {
  /** One clause per line, nested statements indented by two spaces. */
  readonly pretty?: boolean;
}

/** Where the printer is: `pretty` and the current indentation (pretty only). */
interface Layout {
  readonly pretty: boolean;
  readonly indent: string;
}

const COMPACT: Layout = { pretty: false, indent: '' };

export function printType(type: PgType): string {
  const base = type.schema === null ? type.name : quoteQualified(type.schema, type.name);
  return base + '[]'.repeat(type.arrayDims);
}

/** Prints an expression; the top level is not parenthesized. */
export function printSql(expr: SqlExpr, options: PrintOptions = {}): string {
  return printExpr(expr, options.pretty ? { pretty: true, indent: '' } : COMPACT);
}

/** Prints a statement (no trailing semicolon). */
export function printStatement(stmt: SqlStatement, options: PrintOptions = {}): string {
  return statement(stmt, options.pretty ? { pretty: true, indent: '' } : COMPACT);
}

// ---------------------------------------------------------------------------------------------
// Expressions

function printExpr(expr: SqlExpr, l: Layout): string {
  const e = (x: SqlExpr) => printExpr(x, l);
  const op = (x: SqlExpr) => operand(x, l);
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
      const distinct = expr.distinct ? 'distinct ' : '';
      const order = expr.orderBy?.length ? ` order by ${orderList(expr.orderBy, l)}` : '';
      const filter = expr.filter ? ` filter (where ${e(expr.filter)})` : '';
      const over = expr.over ? ` over (${windowSpec(expr.over, l)})` : '';
      return `${name}(${distinct}${expr.args.map(e).join(', ')}${order})${filter}${over}`;
    }
    case 'BinOp':
      return `${op(expr.left)} ${expr.op} ${op(expr.right)}`;
    case 'UnaryOp':
      return expr.postfix ? `${op(expr.operand)} ${expr.op}` : `${expr.op} ${op(expr.operand)}`;
    case 'Cast':
      return `${op(expr.expr)}::${printType(expr.type)}`;
    case 'Case': {
      const whens = expr.whens.map((w) => `when ${e(w.when)} then ${e(w.then)}`);
      const otherwise = expr.else === null ? '' : ` else ${e(expr.else)}`;
      return `case ${whens.join(' ')}${otherwise} end`;
    }
    case 'ArrayExpr': {
      const text = `ARRAY[${expr.elements.map(e).join(', ')}]`;
      return expr.type === null ? text : `${text}::${printType(expr.type)}`;
    }
    case 'RowExpr':
      return `ROW(${expr.elements.map(e).join(', ')})`;
    case 'Subscript':
      return `${operand(expr.expr, l, true)}[${e(expr.index)}]`;
    case 'Slice':
      return `${operand(expr.expr, l, true)}[${expr.lower ? e(expr.lower) : ''}:${expr.upper ? e(expr.upper) : ''}]`;
    case 'Collate':
      return `${op(expr.expr)} COLLATE ${quoteIdent(expr.collation)}`;
    case 'InList':
      return `${op(expr.expr)} ${expr.negated ? 'not in' : 'in'} (${expr.list.map(e).join(', ')})`;
    case 'AnyOp':
      return `${op(expr.left)} ${expr.op} any(${e(expr.array)})`;
    case 'Paren':
      return `(${e(expr.expr)})`;
    case 'Param':
      if (!Number.isInteger(expr.index) || expr.index < 1) {
        throw new Error(`sql/print: parameter index must be a positive integer, got ${expr.index}`);
      }
      return `$${expr.index}`;
    case 'Star':
      return expr.table === null ? '*' : `${quoteIdent(expr.table)}.*`;
    case 'FieldSelect':
      return `(${e(expr.expr)}).${quoteIdent(expr.field)}`;
    case 'BoolOp':
      if (expr.args.length === 0) return expr.op === 'and' ? 'true' : 'false';
      return expr.args.map(op).join(` ${expr.op} `);
    case 'DefaultValue':
      return 'DEFAULT';
    case 'SubLink': {
      const body = nested(expr.query, l);
      if (expr.type === 'exists') return `exists ${body}`;
      if (expr.type === 'array') return `ARRAY${body}`;
      return body;
    }
    case 'AnySubLink':
      return `${op(expr.left)} ${expr.op} any ${nested(expr.query, l)}`;
  }
}

/** Atoms print bare; anything with an operator (a cast included) is parenthesized. Before a
 * subscript PostgreSQL takes only a column, a parameter, a parenthesized expression or a scalar
 * subquery (`f(x)[1]`, `ARRAY[1][1]` do not parse), so anything else is parenthesized there.
 * (DDL expression text feeds constraint names: keep this output stable.) */
function operand(expr: SqlExpr, l: Layout, subscripted = false): string {
  if (subscripted) {
    const bare =
      expr.kind === 'ColumnRef' ||
      expr.kind === 'Param' ||
      expr.kind === 'Paren' ||
      (expr.kind === 'SubLink' && expr.type === 'scalar');
    return bare ? printExpr(expr, l) : `(${printExpr(expr, l)})`;
  }
  switch (expr.kind) {
    case 'ArrayExpr':
    case 'ColumnRef':
    case 'DomainValue':
    case 'RowExpr':
    case 'Paren':
    case 'Subscript':
    case 'Param':
    case 'FieldSelect':
    case 'SubLink':
      // `exists (...)` and `ARRAY(...)` are function-like; `(select ...)` is parenthesized.
      return printExpr(expr, l);
    case 'FuncCall':
      return expr.filter || expr.over ? `(${printExpr(expr, l)})` : printExpr(expr, l);
    case 'Literal':
      // A negative number binds looser than `::` in PostgreSQL: -1::text is -(1::text).
      return expr.type === 'number' && String(expr.value).startsWith('-')
        ? `(${printExpr(expr, l)})`
        : printExpr(expr, l);
    case 'BoolOp':
      return expr.args.length === 1
        ? operand(expr.args[0] as SqlExpr, l)
        : `(${printExpr(expr, l)})`;
    default:
      return `(${printExpr(expr, l)})`;
  }
}

/**
 * `statement`: the list is a statement's ORDER BY (not an aggregate's or a window's), whose keys
 * go through `groupingKey`.
 */
function orderList(items: readonly OrderItem[], l: Layout, statement = false): string {
  return items
    .map((item) => {
      const dir = item.direction === null ? '' : ` ${item.direction}`;
      const nulls = item.nulls === null ? '' : ` nulls ${item.nulls}`;
      const key = statement ? groupingKey(item.expr, l) : printExpr(item.expr, l);
      return `${key}${dir}${nulls}`;
    })
    .join(', ');
}

/** The type a bare non-integer constant is given in a statement's ORDER BY or GROUP BY. */
const CONSTANT_KEY_TYPE = { null: 'text', bool: 'boolean', bytea: 'bytea', text: 'text' } as const;

/**
 * A key of a statement's ORDER BY or GROUP BY. There PostgreSQL reads a bare integer as an
 * output column's position, which is what a number literal means in this AST (`order by 1` over
 * a set operation), and refuses any other bare constant ("non-integer constant in ORDER BY"),
 * which the compiler may well mean as a value (EdgeQL's `order by true`, a key that orders
 * nothing): such a constant is printed cast, which makes it an expression.
 */
function groupingKey(expr: SqlExpr, l: Layout): string {
  if (expr.kind !== 'Literal' || expr.type === 'number') return printExpr(expr, l);
  return `${printExpr(expr, l)}::${CONSTANT_KEY_TYPE[expr.type]}`;
}

function windowSpec(spec: WindowSpec, l: Layout): string {
  const parts: string[] = [];
  if (spec.partitionBy.length > 0) {
    parts.push(`partition by ${spec.partitionBy.map((x) => printExpr(x, l)).join(', ')}`);
  }
  if (spec.orderBy.length > 0) parts.push(`order by ${orderList(spec.orderBy, l)}`);
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Statements

/** The separator between clauses: a space, or a new line at the current indentation. */
function br(l: Layout): string {
  return l.pretty ? `\n${l.indent}` : ' ';
}

function deeper(l: Layout): Layout {
  return l.pretty ? { pretty: true, indent: `${l.indent}  ` } : l;
}

/** A statement inside parentheses (subquery, CTE body, set-operation operand). */
function nested(stmt: SqlStatement, l: Layout): string {
  if (!l.pretty) return `(${statement(stmt, l)})`;
  const inner = deeper(l);
  return `(\n${inner.indent}${statement(stmt, inner)}\n${l.indent})`;
}

function statement(stmt: SqlStatement, l: Layout): string {
  switch (stmt.kind) {
    case 'Select':
      return select(stmt, l);
    case 'SetOperation': {
      const op = `${stmt.op}${stmt.all ? ' all' : ''}`;
      return clauses(l, [
        withClause(stmt.with, l),
        `${nested(stmt.left, l)}${br(l)}${op}${br(l)}${nested(stmt.right, l)}`,
        ...tail(stmt.orderBy, stmt.limit, stmt.offset, l),
      ]);
    }
    case 'Values':
      if (stmt.rows.length === 0) throw new Error('sql/print: VALUES needs at least one row');
      return clauses(l, [
        withClause(stmt.with, l),
        `values ${stmt.rows.map((row) => `(${row.map((x) => printExpr(x, l)).join(', ')})`).join(', ')}`,
      ]);
    case 'Insert':
      return clauses(l, [
        withClause(stmt.with, l),
        `insert into ${tableName(stmt.table)}${alias(stmt.alias)}${
          stmt.columns.length > 0 ? ` (${stmt.columns.map(quoteIdent).join(', ')})` : ''
        }`,
        stmt.source === null ? 'default values' : statement(stmt.source, l),
        onConflict(stmt.onConflict, l),
        returning(stmt.returning, l),
      ]);
    case 'Update':
      return clauses(l, [
        withClause(stmt.with, l),
        `update ${tableName(stmt.table)}${alias(stmt.alias)}`,
        `set ${setList(stmt.set, l)}`,
        stmt.from.length > 0 ? `from ${fromList(stmt.from, l)}` : '',
        stmt.where === null ? '' : `where ${printExpr(stmt.where, l)}`,
        returning(stmt.returning, l),
      ]);
    case 'Delete':
      return clauses(l, [
        withClause(stmt.with, l),
        `delete from ${tableName(stmt.table)}${alias(stmt.alias)}`,
        stmt.using.length > 0 ? `using ${fromList(stmt.using, l)}` : '',
        stmt.where === null ? '' : `where ${printExpr(stmt.where, l)}`,
        returning(stmt.returning, l),
      ]);
  }
}

/** Joins the non-empty clauses with the clause separator. */
function clauses(l: Layout, parts: readonly string[]): string {
  return parts.filter((p) => p !== '').join(br(l));
}

function select(stmt: SqlQuery & { kind: 'Select' }, l: Layout): string {
  const e = (x: SqlExpr) => printExpr(x, l);
  let head = 'select';
  if (stmt.distinct === true) head += ' distinct';
  else if (Array.isArray(stmt.distinct))
    head += ` distinct on (${stmt.distinct.map(e).join(', ')})`;
  if (stmt.targets.length > 0) head += ` ${targetList(stmt.targets, l)}`;
  return clauses(l, [
    withClause(stmt.with, l),
    head,
    stmt.from.length > 0 ? `from ${fromList(stmt.from, l)}` : '',
    stmt.where === null ? '' : `where ${e(stmt.where)}`,
    stmt.groupBy.length > 0
      ? `group by ${stmt.groupBy.map((x) => groupingKey(x, l)).join(', ')}`
      : '',
    stmt.having === null ? '' : `having ${e(stmt.having)}`,
    ...tail(stmt.orderBy, stmt.limit, stmt.offset, l),
  ]);
}

function tail(
  orderBy: readonly OrderItem[],
  limit: SqlExpr | null,
  offset: SqlExpr | null,
  l: Layout,
): string[] {
  return [
    orderBy.length > 0 ? `order by ${orderList(orderBy, l, true)}` : '',
    limit === null ? '' : `limit ${printExpr(limit, l)}`,
    offset === null ? '' : `offset ${printExpr(offset, l)}`,
  ];
}

function withClause(clause: WithClause | null, l: Layout): string {
  if (clause === null || clause.ctes.length === 0) return '';
  const ctes = clause.ctes.map((c) => cte(c, l)).join(`,${br(l)}`);
  return `with ${clause.recursive ? 'recursive ' : ''}${ctes}`;
}

function cte(c: Cte, l: Layout): string {
  const columns = c.columns === null ? '' : `(${c.columns.map(quoteIdent).join(', ')})`;
  const mat = c.materialized === null ? '' : c.materialized ? ' materialized' : ' not materialized';
  return `${quoteIdent(c.name)}${columns} as${mat} ${nested(c.query, l)}`;
}

function targetList(targets: readonly Target[], l: Layout): string {
  return targets
    .map((t) => printExpr(t.expr, l) + (t.alias === null ? '' : ` as ${quoteIdent(t.alias)}`))
    .join(', ');
}

function returning(targets: readonly Target[], l: Layout): string {
  return targets.length > 0 ? `returning ${targetList(targets, l)}` : '';
}

function tableName(table: TableName): string {
  return quoteQualified(table.schema, table.name);
}

function alias(name: string | null): string {
  return name === null ? '' : ` as ${quoteIdent(name)}`;
}

function setList(set: readonly SetClause[], l: Layout): string {
  if (set.length === 0) throw new Error('sql/print: SET needs at least one column');
  return set.map((s) => `${quoteIdent(s.column)} = ${printExpr(s.value, l)}`).join(', ');
}

function onConflict(clause: OnConflict | null, l: Layout): string {
  if (clause === null) return '';
  let text = 'on conflict';
  const target = clause.target;
  if (target?.kind === 'columns') {
    text += ` (${target.columns.map(quoteIdent).join(', ')})`;
    if (target.where !== null) text += ` where ${printExpr(target.where, l)}`;
  } else if (target?.kind === 'constraint') {
    text += ` on constraint ${quoteIdent(target.name)}`;
  }
  if (clause.action.kind === 'nothing') return `${text} do nothing`;
  text += ` do update set ${setList(clause.action.set, l)}`;
  if (clause.action.where !== null) text += ` where ${printExpr(clause.action.where, l)}`;
  return text;
}

function fromList(items: readonly FromItem[], l: Layout): string {
  // Items after the first start on their own (deeper) line: their subqueries indent from there.
  return items.map((item, i) => fromItem(item, i === 0 ? l : deeper(l))).join(`,${br(deeper(l))}`);
}

function fromItem(item: FromItem, l: Layout): string {
  switch (item.kind) {
    case 'TableFrom':
      return `${tableName(item.table)}${alias(item.alias)}`;
    case 'SubqueryFrom': {
      const columns = item.columns === null ? '' : `(${item.columns.map(quoteIdent).join(', ')})`;
      return `${item.lateral ? 'lateral ' : ''}${nested(item.query, l)} as ${quoteIdent(item.alias)}${columns}`;
    }
    case 'FunctionFrom': {
      if (item.call.kind !== 'FuncCall') {
        throw new Error('sql/print: a FROM function must be a function call');
      }
      const ordinality = item.withOrdinality ? ' with ordinality' : '';
      const columns = item.columns === null ? '' : `(${item.columns.map(columnAlias).join(', ')})`;
      const name = item.alias === null ? '' : ` as ${quoteIdent(item.alias)}${columns}`;
      return `${item.lateral ? 'lateral ' : ''}${printExpr(item.call, l)}${ordinality}${name}`;
    }
    case 'JoinFrom': {
      const inner = deeper(l);
      const right =
        item.right.kind === 'JoinFrom'
          ? `(${fromItem(item.right, inner)})`
          : fromItem(item.right, inner);
      const kind = item.type === 'inner' ? 'join' : `${item.type} join`;
      const on = item.on === null ? '' : ` on ${printExpr(item.on, l)}`;
      return `${fromItem(item.left, l)}${br(deeper(l))}${kind} ${right}${on}`;
    }
  }
}

function columnAlias(c: ColumnAlias): string {
  return c.type === null ? quoteIdent(c.name) : `${quoteIdent(c.name)} ${printType(c.type)}`;
}
