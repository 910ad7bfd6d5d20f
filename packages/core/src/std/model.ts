/**
 * std/model: the shapes of the one standard-library table (scalar types, operators, functions,
 * casts) that the query compiler, schema inference and DDL all resolve through.
 *
 * Input: nothing (types only, plus tiny constructors). Output: `Overload`, `Param`, `SigType`,
 * `SqlForm`, `TypeEnv`, the cardinality rules.
 * Invariants:
 * - types are schema `TypeRef`s (EdgeQL names: `std::int64`, `array<std::str>`); a signature may
 *   use a polymorphic type (`anytype`, `anyreal`, ...), bound per call by the resolver (std/resolve);
 * - an overload's SQL form is a pure function of the arguments' SQL (sql/ast `SqlExpr`) to one
 *   `SqlExpr`; it never splices values (literals go through sql/ast and the printer);
 * - element-wise forms give SQL NULL when a singleton argument is NULL (the compiler represents an
 *   empty optional value as NULL); `SqlArgs.nullable` tells a form when it must take care.
 */
import type { StdScalarName, TypeRef } from '../model/schema';
import type { SqlExpr } from '../sql/ast';

export type Volatility = 'Immutable' | 'Stable' | 'Volatile';

/** How a parameter takes its argument (Gel's type modifiers). */
export type TypeMod = 'singleton' | 'optional' | 'set-of';

/**
 * Polymorphic pseudo-types. `anytype` binds to any type (every `anytype` of one call binds to the
 * same type, after implicit casts); the others bind to a type of their family:
 * `anyscalar` any scalar, `anyenum` an enum, `anyreal` int/float/bigint/decimal, `anyint`
 * int16/32/64 and bigint, `anyfloat` float32/64, `anynumeric` bigint/decimal, `anytuple` any tuple,
 * `anypoint` a range element type (model/schema `RANGE_ELEMENTS`), `anydiscrete` one of those
 * whose ranges are discrete (int32, int64, cal::local_date).
 */
export type PolyName =
  | 'anytype'
  | 'anyscalar'
  | 'anyenum'
  | 'anyreal'
  | 'anyint'
  | 'anyfloat'
  | 'anynumeric'
  | 'anytuple'
  | 'anypoint'
  | 'anydiscrete';

/** A type in a signature: a concrete type, or one containing a polymorphic type. */
export type SigType =
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'array'; readonly element: SigType }
  | { readonly kind: 'range'; readonly element: SigType }
  | { readonly kind: 'multirange'; readonly element: SigType }
  | {
      readonly kind: 'tuple';
      readonly elements: readonly { readonly name: string | null; readonly type: SigType }[];
    }
  | { readonly kind: 'poly'; readonly name: PolyName };

export interface Param {
  readonly name: string;
  readonly type: SigType;
  readonly typemod: TypeMod;
  /** `named-only` parameters are passed as `name := value`; `variadic` takes the remaining positionals. */
  readonly kind: 'positional' | 'variadic' | 'named-only';
  /** True when the argument may be left out (the SQL form then sees `null` from `opt`). */
  readonly hasDefault: boolean;
}

/**
 * What the compiler must do around the SQL form:
 * - `element`: call it once per combination of the singleton/optional arguments' values;
 *   set-of parameters (`in`, `not in`) receive an SQL array of the whole argument set;
 * - `aggregate`: the form is an aggregate call over the rows of the set-of argument (the planner
 *   puts that set in FROM and the form's value in the target list); an empty set still gives a row;
 * - `set-returning`: the form returns a set (`unnest(...)`): the planner puts it in FROM
 *   (with `with ordinality` where order matters); its one column is the result. Set-of
 *   parameters (`enumerate`, `assert_exists`, `assert_distinct`) receive an SQL array of the
 *   whole argument set, in the set's order.
 */
export type CallKind = 'element' | 'aggregate' | 'set-returning';

/** The arguments an SQL form receives, already cast to the bound parameter types. */
export interface SqlArgs {
  /** The value of parameter `i` (index into `Overload.params`). Throws if it was not given. */
  readonly at: (i: number) => SqlExpr;
  /** The value of parameter `i`, or null when a parameter with a default was left out. */
  readonly opt: (i: number) => SqlExpr | null;
  /** Every value given to the variadic parameter, in order. */
  readonly rest: readonly SqlExpr[];
  /** Whether parameter `i`'s value may be SQL NULL at run time (an optional or empty argument). */
  readonly nullable: (i: number) => boolean;
  /** The bound type of parameter `i` (polymorphic types replaced); null for an untyped `{}`. */
  readonly type: (i: number) => TypeRef | null;
  /** The bound result type. */
  readonly result: TypeRef | null;
  /** Custom scalars and enums (enum order for `<`, domains for casts). */
  readonly env: TypeEnv;
}

export type SqlForm = (args: SqlArgs) => SqlExpr;

/** What a form knows of its call without the arguments' SQL: the bound types and the TypeEnv. */
export type TypeArgs = Pick<SqlArgs, 'type' | 'result' | 'env'>;

/** Bounds on how many values an expression yields (as in schema/build: 0 | 1 | many). */
export interface Card {
  readonly min: 0 | 1;
  readonly max: 0 | 1 | 'many';
}

export interface Overload {
  /** Qualified EdgeQL name: `std::len`, `math::abs`, or an operator `std::+`, `std::[]`. */
  readonly name: string;
  readonly params: readonly Param[];
  /** The result type; may mention the polymorphic types of the params. */
  readonly returns: SigType;
  readonly returnMod: TypeMod;
  readonly volatility: Volatility;
  readonly kind: CallKind;
  readonly sql: SqlForm;
  /**
   * The result cardinality when the default rule does not hold (the default: product of the
   * singleton and optional arguments' cardinalities, optional ones counted as at least one;
   * `optional` return makes the minimum 0; `set-of` return is 0..many).
   */
  readonly card?: (args: readonly Card[]) => Card;
  /**
   * Set-returning forms: the value of one row from the form's column (default: the column
   * itself); e.g. the items of a jsonb-stored array read as values of the element type.
   */
  readonly rows?: (row: SqlExpr, types: TypeArgs) => SqlExpr;
  /** False for overloads a DDL expression (default, CHECK, index: one row) may not use; which of
   * those must be immutable is the DDL compiler's rule (schema/ddl-expression). */
  readonly ddl: boolean;
}

/**
 * What the resolver needs to know about user scalars: the std scalar a custom scalar extends and
 * the values of an enum, plus the PostgreSQL type a custom scalar is stored as (its DOMAIN).
 */
export interface TypeEnv {
  readonly stdBase: (name: string) => StdScalarName | null;
  readonly enumValues: (name: string) => readonly string[] | null;
  /** The nearest common ancestor of two object types (null: none); absent means "none". */
  readonly commonObject?: (a: string, b: string) => string | null;
}
