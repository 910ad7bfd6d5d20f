/**
 * sql/ast: a small PostgreSQL expression tree, printed in one place (./print).
 *
 * Input: built by the compilers (schema/storage/ddl-expression for DDL expressions; later the query compiler).
 * Output: `printSql(expr)` text. Every node is a plain object with a `kind`.
 * Invariants: identifiers are stored unquoted and quoted only by the printer; literal values are
 * stored as their decoded value and quoted only by the printer (sql/codegen/quote).
 */

/** A PostgreSQL type: built-in (`schema: null`, printed as written, e.g. `double precision`) or
 * user-defined (`schema` set, printed quoted). `arrayDims` adds `[]`s. */
export interface PgType {
  readonly schema: string | null;
  readonly name: string;
  readonly arrayDims: number;
}

export function pgType(name: string, arrayDims = 0): PgType {
  return { schema: null, name, arrayDims };
}

export function pgUserType(schema: string, name: string, arrayDims = 0): PgType {
  return { schema, name, arrayDims };
}

export function pgArrayOf(type: PgType): PgType {
  return { ...type, arrayDims: type.arrayDims + 1 };
}

export type SqlExpr =
  /** `"col"`, `"t"."col"`. */
  | { readonly kind: 'ColumnRef'; readonly table: string | null; readonly name: string }
  /** The `VALUE` keyword of a domain CHECK. */
  | { readonly kind: 'DomainValue' }
  | {
      readonly kind: 'Literal';
      /** How the value prints: `text` quoted, `number` bare, `bool` as `true`/`false`, `null`. */
      readonly type: 'text' | 'number' | 'bool' | 'null' | 'bytea';
      readonly value: string | Uint8Array | null;
    }
  /** `name(args)`; `schema` set for user functions (`svc_meta.uuid_generate_v7()`). */
  | {
      readonly kind: 'FuncCall';
      readonly schema: string | null;
      readonly name: string;
      readonly args: readonly SqlExpr[];
    }
  | { readonly kind: 'BinOp'; readonly op: string; readonly left: SqlExpr; readonly right: SqlExpr }
  /** `op operand` (`not`, `-`) or, with `postfix`, `operand op` (`is null`). */
  | {
      readonly kind: 'UnaryOp';
      readonly op: string;
      readonly operand: SqlExpr;
      readonly postfix?: boolean;
    }
  | { readonly kind: 'Cast'; readonly expr: SqlExpr; readonly type: PgType }
  | {
      readonly kind: 'Case';
      readonly whens: readonly { readonly when: SqlExpr; readonly then: SqlExpr }[];
      readonly else: SqlExpr | null;
    }
  /** `ARRAY[a, b]`; an empty array needs `type` (printed as a cast). */
  | {
      readonly kind: 'ArrayExpr';
      readonly elements: readonly SqlExpr[];
      readonly type: PgType | null;
    }
  /** `ROW(a, b)`. */
  | { readonly kind: 'RowExpr'; readonly elements: readonly SqlExpr[] }
  /** `expr[index]` (`index` is 1-based, as PostgreSQL's). */
  | { readonly kind: 'Subscript'; readonly expr: SqlExpr; readonly index: SqlExpr }
  /** `expr[lower:upper]`. */
  | {
      readonly kind: 'Slice';
      readonly expr: SqlExpr;
      readonly lower: SqlExpr | null;
      readonly upper: SqlExpr | null;
    }
  | { readonly kind: 'Collate'; readonly expr: SqlExpr; readonly collation: string }
  /** `expr [not] in (list)`. */
  | {
      readonly kind: 'InList';
      readonly expr: SqlExpr;
      readonly list: readonly SqlExpr[];
      readonly negated: boolean;
    }
  /** `left op any (array)`. */
  | { readonly kind: 'AnyOp'; readonly left: SqlExpr; readonly op: string; readonly array: SqlExpr }
  /** `coalesce(a, b, ...)` and friends with special syntax are FuncCalls; this is `(expr)`
   * kept as a node so printers never guess precedence. */
  | { readonly kind: 'Paren'; readonly expr: SqlExpr };

export const sql = {
  col: (name: string, table: string | null = null): SqlExpr => ({ kind: 'ColumnRef', table, name }),
  text: (value: string): SqlExpr => ({ kind: 'Literal', type: 'text', value }),
  num: (value: string | number): SqlExpr => ({
    kind: 'Literal',
    type: 'number',
    value: String(value),
  }),
  bool: (value: boolean): SqlExpr => ({ kind: 'Literal', type: 'bool', value: String(value) }),
  null: (): SqlExpr => ({ kind: 'Literal', type: 'null', value: null }),
  bytes: (value: Uint8Array): SqlExpr => ({ kind: 'Literal', type: 'bytea', value }),
  func: (name: string, args: readonly SqlExpr[], schema: string | null = null): SqlExpr => ({
    kind: 'FuncCall',
    schema,
    name,
    args,
  }),
  bin: (op: string, left: SqlExpr, right: SqlExpr): SqlExpr => ({ kind: 'BinOp', op, left, right }),
  not: (operand: SqlExpr): SqlExpr => ({ kind: 'UnaryOp', op: 'not', operand }),
  isNull: (operand: SqlExpr, negated = false): SqlExpr => ({
    kind: 'UnaryOp',
    op: negated ? 'is not null' : 'is null',
    operand,
    postfix: true,
  }),
  cast: (expr: SqlExpr, type: PgType): SqlExpr => ({ kind: 'Cast', expr, type }),
};
