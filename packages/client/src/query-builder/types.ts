/**
 * query-builder/types: the type-level half of the builder. A generated module describes its
 * schema as data (`SchemaTypes`: every object type's pointers) and as TypeScript (`values`: the
 * TypeScript value of each EdgeQL type its pointers use); these types turn a shape into its
 * result type by svc's conventions (docs/http.md, "Describe"; spec items 18 and 19):
 *
 * - a property is its value, `| null` when optional, an array when multi;
 * - a link (stored or computed) without a sub-shape is its target's id: a string (`| null` when
 *   optional), a string array when multi;
 * - a link with a sub-shape is the object (`| null` when optional), an array when multi.
 */
import type { Client } from '../client';

/** How many values an expression yields: exactly one, at most one, any number. */
export type Card = 'one' | 'atMostOne' | 'many';

/** One pointer of an object type, as a generated module describes it. */
export interface PointerSpec {
  readonly kind: 'property' | 'link';
  readonly card: 'one' | 'many';
  readonly required: boolean;
  readonly computed: boolean;
  readonly readonly: boolean;
  /** `constraint exclusive` on it (or it is `id`): usable in `filter_single`. */
  readonly exclusive: boolean;
  /** It has a default (insert may leave it out). */
  readonly hasDefault: boolean;
  /** The EdgeQL type: a scalar or collection type for a property, object type names for a link. */
  readonly target: string;
}

/** Object types by qualified name, each its pointers by name. */
export type SchemaTypes = Readonly<Record<string, Readonly<Record<string, PointerSpec>>>>;

declare const VALUE: unique symbol;
declare const CARD: unique symbol;
declare const OBJECT: unique symbol;

/** An expression yielding values of TypeScript type `T`, `C` of them. */
export interface Expr<T = unknown, C extends Card = Card> {
  readonly [VALUE]: T;
  readonly [CARD]: C;
}

/** An expression yielding objects of the named type(s). */
export interface ObjectExpr<N extends string, C extends Card = Card>
  extends Expr<{ id: string }, C> {
  readonly [OBJECT]: N;
}

/** An expression or a plain value of type T (a variable of the query, `<type>$__v0`). */
export type Operand<T> = T | Expr<T, Card>;

/** The cardinality of an operand (a plain value is one). */
export type CardOf<A> = A extends Expr<unknown, infer C> ? C : 'one';

/** The cardinality of an element-wise combination of two. */
export type MaxCard<A extends Card, B extends Card> = 'many' extends A | B
  ? 'many'
  : 'atMostOne' extends A | B
    ? 'atMostOne'
    : 'one';

/** A value of cardinality C: itself, `| null`, or an array. */
export type Wrap<T, C extends Card> = C extends 'one' ? T : C extends 'atMostOne' ? T | null : T[];

/** What a query resolves to, by its cardinality. */
export type Resolved<T, C extends Card> = Wrap<T, C>;

type PointerCard<P extends PointerSpec> = P['card'] extends 'many'
  ? 'many'
  : P['required'] extends true
    ? 'one'
    : 'atMostOne';

type ValueOf<V, Target> = Target extends keyof V ? V[Target] : unknown;

/** The path `p` of a select, update or delete: `p.name`, `p.author.name`. */
export type Path<S extends SchemaTypes, V, N extends keyof S & string, C extends Card> = ObjectExpr<
  N,
  C
> & {
  readonly [K in keyof S[N]]: S[N][K] extends PointerSpec
    ? S[N][K]['kind'] extends 'link'
      ? Path<S, V, S[N][K]['target'] & keyof S & string, MaxCard<C, PointerCard<S[N][K]>>>
      : Expr<ValueOf<V, S[N][K]['target']>, MaxCard<C, PointerCard<S[N][K]>>>
    : never;
};

/** An ordering key: an expression, or one with a direction and where empty values go. */
export type OrderKey =
  | Expr<unknown, 'one' | 'atMostOne'>
  | {
      readonly expression: Expr<unknown, 'one' | 'atMostOne'>;
      readonly direction?: 'asc' | 'desc';
      readonly empty?: 'first' | 'last';
    };

type ExclusiveKeys<P> = {
  [K in keyof P]: P[K] extends { exclusive: true; kind: 'property' } ? K : never;
}[keyof P];

/** `filter_single`: one value for each of some exclusive properties (`{ id }`, `{ email }`). */
export type FilterSingle<S extends SchemaTypes, V, N extends keyof S> = {
  readonly [K in ExclusiveKeys<S[N]>]?: S[N][K] extends PointerSpec
    ? Operand<ValueOf<V, S[N][K]['target']>>
    : never;
};

/** What narrows a select, update or delete. */
export interface Filters<S extends SchemaTypes, V, N extends keyof S> {
  readonly filter?: Expr<boolean, Card>;
  readonly filter_single?: FilterSingle<S, V, N>;
}

/** What orders and pages a select. */
export interface Paging {
  readonly order_by?: OrderKey | readonly OrderKey[];
  readonly limit?: Operand<number>;
  readonly offset?: Operand<number>;
}

type ModifierKey = 'filter' | 'filter_single' | 'order_by' | 'limit' | 'offset';

/** The shape a select may take: pointers, computed expressions, and the modifiers. */
export type Shape<S extends SchemaTypes, V, N extends keyof S & string> = {
  readonly [K in keyof S[N]]?: S[N][K] extends PointerSpec
    ? S[N][K]['kind'] extends 'link'
      ? boolean | LinkShape<S, V, S[N][K]['target'] & keyof S & string>
      : boolean
    : never;
} & Filters<S, V, N> &
  Paging;

/** A link's sub-shape: a shape, or a function of the link's path giving one. */
export type LinkShape<S extends SchemaTypes, V, N extends keyof S & string> =
  | Shape<S, V, N>
  | ((path: Path<S, V, N, 'one'>) => Shape<S, V, N>);

/**
 * `Sh` as the shape of N: keys that are neither pointers nor modifiers must be expressions
 * (computed fields); anything else is `never`, a compile error at the wrong key.
 */
export type CheckedShape<S extends SchemaTypes, V, N extends keyof S & string, Sh> = Sh & {
  readonly [K in keyof Sh]: K extends 'filter_single'
    ? CheckedFilterSingle<S, V, N, Sh[K]>
    : K extends ModifierKey
      ? (Filters<S, V, N> & Paging)[K]
      : K extends keyof S[N]
        ? S[N][K] extends { kind: 'link'; target: infer T extends string }
          ? Sh[K] extends boolean
            ? unknown
            : Sh[K] extends (path: never) => infer R
              ? (
                  path: Path<S, V, T & keyof S & string, 'one'>,
                ) => CheckedShape<S, V, T & keyof S & string, R>
              : CheckedShape<S, V, T & keyof S & string, Sh[K]>
          : boolean
        : Expr<unknown, Card>;
};

/** `filter_single` naming only exclusive properties, each with a value of its type. */
export type CheckedFilterSingle<S extends SchemaTypes, V, N extends keyof S, F> = {
  readonly [K in keyof F]: K extends ExclusiveKeys<S[N]>
    ? S[N][K] extends PointerSpec
      ? Operand<ValueOf<V, S[N][K]['target']>>
      : never
    : never;
};

/** An update's or delete's filters, checked as a select's are. */
export type CheckedFilters<S extends SchemaTypes, V, N extends keyof S, U> = U &
  Omit<Filters<S, V, N>, 'filter_single'> &
  (U extends { filter_single: infer F }
    ? { filter_single: CheckedFilterSingle<S, V, N, F> }
    : unknown);

type SubShapeOf<X> = X extends (path: never) => infer R ? R : X;

type FieldResult<S extends SchemaTypes, V, P, X> = P extends PointerSpec
  ? P['kind'] extends 'link'
    ? [X] extends [boolean]
      ? Wrap<string, PointerCard<P>>
      : Wrap<ShapeResult<S, V, P['target'] & keyof S & string, SubShapeOf<X>>, PointerCard<P>>
    : Wrap<ValueOf<V, P['target']>, PointerCard<P>>
  : never;

/** The result of one object selected with shape Sh (`{ id }` for an empty shape). */
export type ShapeResult<S extends SchemaTypes, V, N extends keyof S & string, Sh> = keyof {
  [K in keyof Sh as K extends ModifierKey ? never : Sh[K] extends false | undefined ? never : K]: 0;
} extends never
  ? { id: string }
  : {
      -readonly [K in keyof Sh as K extends ModifierKey
        ? never
        : Sh[K] extends false | undefined
          ? never
          : K]: K extends keyof S[N]
        ? FieldResult<S, V, S[N][K], Sh[K]>
        : Sh[K] extends Expr<infer T, infer C>
          ? Wrap<T, C>
          : never;
    };

/** A select's cardinality: at most one with `filter_single`. */
export type SelectCard<Sh> = Sh extends { filter_single: object } ? 'atMostOne' : 'many';

/** A stored row, as a bare insert, update or delete answers it (links as ids). */
export type StoredRow<S extends SchemaTypes, V, N extends keyof S & string> = {
  -readonly [K in keyof S[N] as S[N][K] extends { computed: true }
    ? never
    : K]: S[N][K] extends PointerSpec
    ? Wrap<
        S[N][K]['kind'] extends 'link' ? string : ValueOf<V, S[N][K]['target']>,
        PointerCard<S[N][K]>
      >
    : never;
};

type Writable<P> = {
  [K in keyof P]: P[K] extends { computed: true } ? never : K extends 'id' ? never : K;
}[keyof P];

/** The value written to one pointer: a value or expression; a set of them for a multi pointer. */
export type PointerValue<V, P> = P extends PointerSpec
  ? P['kind'] extends 'link'
    ? ObjectExpr<P['target'], Card> | (P['required'] extends true ? never : null)
    : P['card'] extends 'many'
      ? readonly ValueOf<V, P['target']>[] | Expr<ValueOf<V, P['target']>, Card>
      : Operand<ValueOf<V, P['target']>> | (P['required'] extends true ? never : null)
  : never;

type RequiredOnInsert<P> = {
  [K in Writable<P>]: P[K] extends { required: true; hasDefault: false } ? K : never;
}[Writable<P>];

/** An insert's values: every required pointer without a default, the others optional. */
export type InsertShape<S extends SchemaTypes, V, N extends keyof S & string> = {
  readonly [K in RequiredOnInsert<S[N]>]: PointerValue<V, S[N][K]>;
} & {
  readonly [K in Exclude<Writable<S[N]>, RequiredOnInsert<S[N]>>]?: PointerValue<V, S[N][K]>;
};

/** An update's `set`: a value for some pointers; a multi link may add (`+=`) or remove (`-=`). */
export type UpdateShape<S extends SchemaTypes, V, N extends keyof S & string> = {
  readonly [K in Writable<S[N]> as S[N][K] extends { readonly: true } ? never : K]?:
    | PointerValue<V, S[N][K]>
    | (S[N][K] extends { card: 'many' }
        ? { readonly '+=': PointerValue<V, S[N][K]> } | { readonly '-=': PointerValue<V, S[N][K]> }
        : never);
};

/** An update's `set` naming only pointers it may write, each with a value of its type. */
export type CheckedSet<S extends SchemaTypes, V, N extends keyof S & string, U> = U extends {
  set: infer X;
}
  ? {
      readonly set: {
        readonly [K in keyof X]: K extends keyof UpdateShape<S, V, N>
          ? UpdateShape<S, V, N>[K]
          : never;
      };
    }
  : { readonly set: UpdateShape<S, V, N> };

/**
 * A query's text and its variables: each plain value of the query is a variable (`$__v0`,
 * `$__v1`, ... in the order they appear), so one query shape is one text whatever its values.
 * The values are as given (Date, bigint, Range, ...): `client.query(query, variables)` encodes
 * them.
 */
export interface QueryText {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** A query to run: its EdgeQL, and `run` through a client by its cardinality. */
export interface Query<T, C extends Card> extends Expr<T, C> {
  /** The EdgeQL text the server runs (plain values as variables: `toQuery()` gives them too). */
  toEdgeQL(): string;
  /** The text and the variables `run` sends. */
  toQuery(): QueryText;
  run(client: Client): Promise<Resolved<T, C>>;
}

/** A query over parameters: `run` takes their values. */
export interface ParamsQuery<A, R> {
  toEdgeQL(): string;
  /** The text and the variables `run(client, args)` sends: the parameters' and the builder's. */
  toQuery(args: A): QueryText;
  run(client: Client, args: A): Promise<R>;
}

/** A parameter's type: `e.str`, `e.uuid`, `e.optional(e.int32)`. */
export interface ParamType<T, Optional extends boolean = false> {
  readonly name: string;
  readonly optional: Optional;
  readonly [VALUE]: T;
}

/** The values `run` takes for these parameters (optional ones may be left out). */
export type ParamValues<P> = {
  [K in keyof P as P[K] extends ParamType<unknown, false> ? K : never]: P[K] extends ParamType<
    infer T,
    boolean
  >
    ? T
    : never;
} & {
  [K in keyof P as P[K] extends ParamType<unknown, true> ? K : never]?: P[K] extends ParamType<
    infer T,
    boolean
  >
    ? T | null
    : never;
};

/** Inside `e.params`: each parameter as an expression. */
export type ParamExprs<P> = {
  readonly [K in keyof P]: P[K] extends ParamType<infer T, infer O>
    ? Expr<T, O extends true ? 'atMostOne' : 'one'>
    : never;
};
