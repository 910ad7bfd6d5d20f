/**
 * @svc/client/query-builder: the runtime of the typed query builder `svc generate
 * query-builder` writes for a schema. The generated module describes the schema and exports
 * `e`; its queries print EdgeQL (`toEdgeQL()`; each plain value in it is a variable,
 * `toQuery()` gives the text and their values) and run through a client (`run(client)`), by
 * their cardinality (`query`, `querySingle`, `queryRequiredSingle`).
 *
 * @example
 * import { e } from './dbschema/query-builder';
 * const post = await e
 *   .select(e.Post, (p) => ({ title: true, author: { name: true }, filter_single: { id } }))
 *   .run(client);
 *
 * Not imported by `@svc/client` itself: an app that does not use it does not load it.
 */
import type { Client } from '../client';
import { createBuilder as createRuntime, type BuilderSchema } from './builder';
import type {
  Card,
  CheckedFilters,
  CheckedSet,
  CheckedShape,
  Expr,
  InsertShape,
  ObjectExpr,
  ParamExprs,
  ParamsQuery,
  ParamType,
  ParamValues,
  Path,
  Query,
  SchemaTypes,
  SelectCard,
  Shape,
  ShapeResult,
  StoredRow,
} from './types';

export type {
  Card,
  CardOf,
  Expr,
  MaxCard,
  ObjectExpr,
  Operand,
  ParamType,
  ParamsQuery,
  PointerSpec,
  Query,
  QueryText,
  SchemaTypes,
} from './types';
export type { BuilderSchema, FunctionCard } from './builder';

/** An object type as a set: `e.User`. */
export type TypeSet<N extends string> = ObjectExpr<N, 'many'>;

/** The query forms of `e`, for the schema S whose TypeScript values are V. */
export interface Builder<S extends SchemaTypes, V> {
  /** `select User { ... } filter ... order by ... limit ...` */
  select<N extends keyof S & string, Sh extends Shape<S, V, N>>(
    set: TypeSet<N>,
    shape: (path: Path<S, V, N, 'one'>) => CheckedShape<S, V, N, Sh>,
  ): Query<ShapeResult<S, V, N, Sh>, SelectCard<Sh>> & ObjectExpr<N, SelectCard<Sh>>;
  /** `select User`: each object's id. */
  select<N extends keyof S & string>(
    set: TypeSet<N>,
  ): Query<{ id: string }, 'many'> & ObjectExpr<N, 'many'>;
  /** `select <expression>`: `e.select(e.count(e.User))`. */
  select<T, C extends Card>(expr: Expr<T, C>): Query<T, C>;
  /** `insert User { ... }`: the stored row written (links as ids). */
  insert<N extends keyof S & string>(
    set: TypeSet<N>,
    values: InsertShape<S, V, N>,
  ): Query<StoredRow<S, V, N>, 'one'>;
  /** `update User filter ... set { ... }`: the stored rows written. */
  update<N extends keyof S & string, U>(
    set: TypeSet<N>,
    changes: (path: Path<S, V, N, 'one'>) => CheckedFilters<S, V, N, U> & CheckedSet<S, V, N, U>,
  ): Query<StoredRow<S, V, N>, SelectCard<U>>;
  /** `delete User filter ...`: the stored rows deleted. */
  delete<N extends keyof S & string, D = object>(
    set: TypeSet<N>,
    filters?: (path: Path<S, V, N, 'one'>) => CheckedFilters<S, V, N, D>,
  ): Query<StoredRow<S, V, N>, SelectCard<D>>;
  /** A query over typed parameters: `run(client, { ...values })`. */
  params<P extends Readonly<Record<string, ParamType<unknown, boolean>>>, R>(
    params: P,
    query: (params: ParamExprs<P>) => { run(client: Client): Promise<R> },
  ): ParamsQuery<ParamValues<P>, R>;
  /** A parameter that may be left out or null: `e.optional(e.int32)`. */
  optional<T>(type: ParamType<T, false>): ParamType<T, true>;
}

type Named<S, V, K> = K extends keyof S & string
  ? TypeSet<K>
  : K extends keyof V
    ? ParamType<V[K]>
    : never;

/** Named types: object types and scalars (not collections such as `array<std::str>`). */
type Names<S, V> =
  | (keyof S & string)
  | Exclude<Extract<keyof V, `${string}::${string}`>, `${string}<${string}`>;

type Local<K, M extends string> = K extends `${M}::${infer L}` ? L : never;
type ModuleOf<K> = K extends `${infer M}::${string}` ? M : never;

/** `e.User`, `e.str`, `e.Mood` (default and std at the top), `e.shop.Item`, `e.cal.local_date`. */
export type Namespaces<S, V> = {
  readonly [K in Names<S, V> as Local<K, 'default'> | Local<K, 'std'>]: Named<S, V, K>;
} & {
  readonly [M in ModuleOf<Names<S, V>>]: {
    readonly [K in Names<S, V> as Local<K, M>]: Named<S, V, K>;
  };
};

/**
 * `e` for a schema: S its types as data, V the TypeScript value of each EdgeQL type, F the
 * typed std functions and operators (all three written by `svc generate query-builder`).
 */
export function createBuilder<S extends SchemaTypes, V, F>(
  schema: BuilderSchema & { readonly types: S },
): Builder<S, V> & Namespaces<S, V> & F {
  return createRuntime(schema) as unknown as Builder<S, V> & Namespaces<S, V> & F;
}
