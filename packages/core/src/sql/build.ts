/**
 * sql/build: the constructors of the SQL AST (./ast) — PostgreSQL types (`pgType`), nodes
 * (`sql.*`, with their defaults), JSON constructors of any size (`jsonBuild`) and JSON built as
 * text (`jsonFromText`, `jsonObject`, `jsonArrayAgg`). Re-exported by ./ast and ./index.
 */
import type {
  ColumnAlias,
  Cte,
  DeleteStatement,
  FromItem,
  InsertStatement,
  OrderItem,
  PgType,
  SelectStatement,
  SetOperationStatement,
  SqlExpr,
  SqlQuery,
  SqlStatement,
  Target,
  UpdateStatement,
  ValuesStatement,
  WindowSpec,
  WithClause,
} from './ast';

export function pgType(name: string, arrayDims = 0): PgType {
  return { schema: null, name, arrayDims };
}

export function pgUserType(schema: string, name: string, arrayDims = 0): PgType {
  return { schema, name, arrayDims };
}

export function pgArrayOf(type: PgType): PgType {
  return { ...type, arrayDims: type.arrayDims + 1 };
}

// ---------------------------------------------------------------------------------------------
// Builders

function boolOp(op: 'and' | 'or', args: readonly SqlExpr[]): SqlExpr {
  const [only] = args;
  if (args.length === 1 && only !== undefined) return only;
  if (args.length === 0) return { kind: 'Literal', type: 'bool', value: String(op === 'and') };
  return { kind: 'BoolOp', op, args };
}

type Optional<T, K extends keyof T> = Omit<T, K | 'kind'> & Partial<Pick<T, K>>;

/** PostgreSQL passes at most this many arguments to a function (FUNC_MAX_ARGS; SQLSTATE 54023). */
export const MAX_FUNCTION_ARGS = 100;

/** The JSON constructors `jsonBuild` splits. */
export type JsonBuildFunction =
  | 'json_build_object'
  | 'jsonb_build_object'
  | 'json_build_array'
  | 'jsonb_build_array';

/**
 * `name(args)` for a JSON constructor of any size. Up to MAX_FUNCTION_ARGS arguments it is that
 * one call; past it the arguments are split into calls of at most MAX_FUNCTION_ARGS (whole
 * key/value pairs for objects) joined in order: jsonb chunks with `||` (arrays append, objects
 * merge), json chunks through their text — every chunk but the last loses its closing bracket,
 * every chunk but the first its opening one, joined by `, ` and cast back to json — so key order
 * (and duplicate keys) of a json object stay as one call would write them.
 */
export function jsonBuild(name: JsonBuildFunction, given: readonly SqlExpr[]): SqlExpr {
  const object = name.endsWith('_object');
  // A value already converted by `to_json(x)` (`to_jsonb` for jsonb) is `x` here: the
  // constructor converts each value by the same rule, so the call would be work done twice.
  const convert = name.startsWith('jsonb') ? 'to_jsonb' : 'to_json';
  const args = given.map((a, i) => (object && i % 2 === 0 ? a : unwrapConversion(a, convert)));
  if (args.length <= MAX_FUNCTION_ARGS) return sql.func(name, args);
  if (object && args.length % 2 !== 0) throw new Error(`${name}: an odd number of arguments`);
  const chunks: SqlExpr[] = [];
  for (let i = 0; i < args.length; i += MAX_FUNCTION_ARGS)
    chunks.push(sql.func(name, args.slice(i, i + MAX_FUNCTION_ARGS)));
  if (name.startsWith('jsonb')) {
    return chunks.reduce((acc, c) => sql.bin('||', acc, c));
  }
  const text = pgType('text');
  const last = chunks.length - 1;
  const pieces = chunks.map((c, i) => {
    let t = sql.cast(c, text);
    if (i < last) t = sql.func('left', [t, sql.num(-1)]);
    if (i > 0) t = sql.func('substr', [t, sql.num(2)]);
    return t;
  });
  const joined = pieces.reduce((acc, p) => sql.bin('||', sql.bin('||', acc, sql.text(', ')), p));
  return sql.cast(joined, pgType('json'));
}

// ---------------------------------------------------------------------------------------------
// JSON text
//
// PostgreSQL 15 writes a value into JSON by looking up its type's JSON category and output
// function on every call (`json_categorize_type`), for every value of every object: most of the
// time a result takes. Results are therefore built as JSON text where they can be: an object is
// its pieces joined with `||` (`'{"id":"' || id::text || '","n":' || ... || '}'`), an array of
// them `string_agg` of their texts, with the same bytes `to_json` and `json_agg` write. Such a
// value is a `json` cast of its text marked `jsonText` (`jsonFromText`), so every consumer still
// sees a `json` value and gets the right answer; consumers that work on text (`jsonAsText`: the
// objects, arrays and results built here) take the text itself and skip the parse.

const JSON_TYPE = pgType('json');
const TEXT_TYPE = pgType('text');

/** `text::json`, marked as JSON text the compiler built (`text` may be SQL NULL: NULL json). */
export function jsonFromText(text: SqlExpr): SqlExpr {
  return { kind: 'Cast', expr: text, type: JSON_TYPE, jsonText: true };
}

/** The JSON text inside `e` when it is `jsonFromText(text)`, else null. */
function markedText(e: SqlExpr): SqlExpr | null {
  return e.kind === 'Cast' && e.jsonText === true ? e.expr : null;
}

/** A `json` NULL (`null::json`): an absent value in JSON-valued CASE branches. */
function isJsonNull(e: SqlExpr): boolean {
  return (
    e.kind === 'Cast' &&
    e.expr.kind === 'Literal' &&
    e.expr.type === 'null' &&
    e.type.schema === null &&
    e.type.name === 'json' &&
    e.type.arrayDims === 0
  );
}

/** True when `e` is JSON text (`jsonFromText`) or a CASE choosing between such texts and NULL. */
export function isJsonText(e: SqlExpr): boolean {
  if (markedText(e) !== null) return true;
  if (e.kind !== 'Case') return false;
  const branches = [...e.whens.map((w) => w.then), ...(e.else ? [e.else] : [])];
  return (
    branches.some((b) => markedText(b) !== null) &&
    branches.every((b) => markedText(b) !== null || isJsonNull(b))
  );
}

/**
 * The JSON text of `e`, as an element of an object or array writes it: never SQL NULL (an absent
 * value is `null`). `e` is a `json` value or any value `to_json` converts (a uuid, a number): the
 * text inside `jsonFromText`, a CASE of such texts branch by branch, else `to_json(e)::text`.
 */
export function jsonAsText(e: SqlExpr): SqlExpr {
  const marked = markedText(e);
  if (marked !== null) return orNullText(marked);
  if (e.kind === 'Case' && isJsonText(e)) {
    return {
      kind: 'Case',
      whens: e.whens.map((w) => ({ when: w.when, then: jsonAsText(w.then) })),
      else: e.else ? jsonAsText(e.else) : NULL_TEXT,
    };
  }
  if (isJsonNull(e) || (e.kind === 'Literal' && e.type === 'null')) return NULL_TEXT;
  // A bare text literal has no type `to_json` could take (SQLSTATE 42804): it is text.
  const value =
    e.kind === 'Literal' && e.type === 'text'
      ? sql.cast(e, TEXT_TYPE)
      : unwrapConversion(e, 'to_json');
  return orNullText(sql.cast(sql.func('to_json', [value]), TEXT_TYPE));
}

const NULL_TEXT: SqlExpr = { kind: 'Literal', type: 'text', value: 'null' };

function orNullText(text: SqlExpr): SqlExpr {
  return neverNull(text) ? text : sql.func('coalesce', [text, NULL_TEXT]);
}

/** True when `e` cannot be SQL NULL, by its form: text literals, `||` of such, `coalesce(..., x)`. */
function neverNull(e: SqlExpr): boolean {
  switch (e.kind) {
    case 'Literal':
      return e.value !== null;
    case 'BinOp':
      return e.op === '||' && neverNull(e.left) && neverNull(e.right);
    case 'FuncCall':
      return (
        e.name === 'coalesce' &&
        e.schema === null &&
        neverNull(e.args[e.args.length - 1] as SqlExpr)
      );
    case 'Case':
      return e.else !== null && neverNull(e.else) && e.whens.every((w) => neverNull(w.then));
    default:
      return false;
  }
}

/**
 * `a || b || ...` of text pieces, adjacent literals merged, nested as a balanced tree: PostgreSQL
 * copies the left operand at each `||`, so a chain of n pieces copies O(n^2) bytes and nests n
 * deep; a balanced tree copies O(n log n) and nests log n deep.
 */
export function concatText(pieces: readonly SqlExpr[]): SqlExpr {
  const merged: SqlExpr[] = [];
  for (const p of pieces) {
    const last = merged[merged.length - 1];
    if (
      last?.kind === 'Literal' &&
      last.type === 'text' &&
      p.kind === 'Literal' &&
      p.type === 'text'
    ) {
      merged[merged.length - 1] = sql.text(`${last.value as string}${p.value as string}`);
    } else merged.push(p);
  }
  if (merged.length === 0) return sql.text('');
  const join = (from: number, to: number): SqlExpr => {
    if (to - from === 1) return merged[from] as SqlExpr;
    const mid = (from + to) >> 1;
    return sql.bin('||', join(from, mid), join(mid, to));
  };
  return join(0, merged.length);
}

/**
 * The bytes a JSON object is written with: `row` as `to_json` of a row (`{"k1":v1,"k2":v2}`, the
 * shapes), `build_object` as `json_build_object` writes it (`{"k1" : v1, "k2" : v2}`: named
 * tuples and `group`'s objects, whose bytes clients have always had). Either way the text is
 * svc's own, so no engine's JSON object (CockroachDB's JSONB) can reorder its keys.
 */
export type JsonObjectForm = 'row' | 'build_object';

/**
 * A JSON object of `entries`, in their order, as JSON text (`jsonFromText`):
 * `'{"k1":' || text(v1) || ',"k2":' || ... || '}'`, each value's text by `jsonAsText` (values
 * are `json`, or any value `to_json` converts). The bytes are those of `to_json` of a row with
 * these columns (`{"k1":v1,"k2":v2}`), for any key (keys are escaped as PostgreSQL escapes them:
 * `JSON.stringify` writes the same escapes) and any number of entries, repeated keys kept.
 */
export function jsonObject(
  entries: readonly (readonly [string, SqlExpr])[],
  form: JsonObjectForm = 'row',
): SqlExpr {
  if (entries.length === 0) return jsonFromText(sql.text('{}'));
  const [open, next, colon] = form === 'row' ? ['{', ',', ':'] : ['{', ', ', ' : '];
  const pieces: SqlExpr[] = [];
  entries.forEach(([key, value], i) => {
    pieces.push(sql.text(`${i === 0 ? open : next}${JSON.stringify(key)}${colon}`));
    pieces.push(jsonAsText(value));
  });
  pieces.push(sql.text('}'));
  return jsonFromText(concatText(pieces));
}

/**
 * A JSON array of `element` over the rows aggregated, in `orderBy`; with `orEmpty`, `[]` for no
 * rows, else NULL (as `json_agg`). JSON text elements (`isJsonText`) are joined as text,
 * `'[' || string_agg(text, ', ') || ']'`, the bytes `json_agg` writes for `json` values; any
 * other element is `json_agg(element)`.
 */
export function jsonArrayAgg(
  element: SqlExpr,
  parts: { readonly orderBy?: readonly OrderItem[]; readonly orEmpty: boolean },
): SqlExpr {
  const orderBy = parts.orderBy && parts.orderBy.length > 0 ? parts.orderBy : undefined;
  if (!isJsonText(element)) {
    const agg = sql.agg('json_agg', [element], orderBy ? { orderBy } : {});
    return parts.orEmpty ? sql.func('coalesce', [agg, sql.cast(sql.text('[]'), JSON_TYPE)]) : agg;
  }
  const joined = sql.agg(
    'string_agg',
    [jsonAsText(element), sql.text(', ')],
    orderBy ? { orderBy } : {},
  );
  const array = concatText([sql.text('['), joined, sql.text(']')]);
  return jsonFromText(parts.orEmpty ? sql.func('coalesce', [array, sql.text('[]')]) : array);
}

/**
 * The elements of `jsonArrayAgg(element, { orderBy, orEmpty })` without the array around them:
 * their JSON texts joined with `', '` in `orderBy`, SQL NULL for no rows. The same bytes as the
 * array's inside, for JSON text elements only (null for any other element: `json_agg` may write
 * whitespace of its own between structured values). A statement's result is read this way
 * (`StatementPlan.elements`): the brackets are added by the reader, so PostgreSQL does not copy
 * a large result twice more to add two characters.
 */
export function jsonElementsAgg(
  element: SqlExpr,
  parts: { readonly orderBy?: readonly OrderItem[] },
): SqlExpr | null {
  if (!isJsonText(element)) return null;
  const orderBy = parts.orderBy && parts.orderBy.length > 0 ? parts.orderBy : undefined;
  return sql.agg('string_agg', [jsonAsText(element), sql.text(', ')], orderBy ? { orderBy } : {});
}

/** `x` for a plain `convert(x)` call, else `e` itself. */
function unwrapConversion(e: SqlExpr, convert: string): SqlExpr {
  if (e.kind !== 'FuncCall' || e.name !== convert || e.schema !== null) return e;
  if (e.args.length !== 1 || e.distinct || e.orderBy || e.filter || e.over) return e;
  return e.args[0] as SqlExpr;
}

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
  /** A JSON constructor call of any size (`jsonBuild`): split past MAX_FUNCTION_ARGS. */
  jsonBuild: (name: JsonBuildFunction, args: readonly SqlExpr[]): SqlExpr => jsonBuild(name, args),
  /** A JSON object of key/value entries in order, as JSON text (`jsonObject`). */
  jsonObject: (
    entries: readonly (readonly [string, SqlExpr])[],
    form: JsonObjectForm = 'row',
  ): SqlExpr => jsonObject(entries, form),
  /** `text::json` for JSON text the compiler built (`jsonFromText`). */
  jsonFromText: (text: SqlExpr): SqlExpr => jsonFromText(text),
  /** A JSON array aggregate, as text for JSON text elements (`jsonArrayAgg`). */
  jsonArrayAgg: (
    element: SqlExpr,
    parts: { readonly orderBy?: readonly OrderItem[]; readonly orEmpty: boolean },
  ): SqlExpr => jsonArrayAgg(element, parts),
  /** The inside of that array, for JSON text elements (`jsonElementsAgg`), else null. */
  jsonElementsAgg: (
    element: SqlExpr,
    parts: { readonly orderBy?: readonly OrderItem[] },
  ): SqlExpr | null => jsonElementsAgg(element, parts),
  /** An aggregate or window call: `sql.agg('json_agg', [x], { orderBy: [...] })`. */
  agg: (
    name: string,
    args: readonly SqlExpr[],
    parts: {
      distinct?: boolean;
      orderBy?: readonly OrderItem[];
      filter?: SqlExpr;
      over?: WindowSpec;
    } = {},
  ): SqlExpr => ({ kind: 'FuncCall', schema: null, name, args, ...parts }),
  bin: (op: string, left: SqlExpr, right: SqlExpr): SqlExpr => ({ kind: 'BinOp', op, left, right }),
  not: (operand: SqlExpr): SqlExpr => ({ kind: 'UnaryOp', op: 'not', operand }),
  isNull: (operand: SqlExpr, negated = false): SqlExpr => ({
    kind: 'UnaryOp',
    op: negated ? 'is not null' : 'is null',
    operand,
    postfix: true,
  }),
  /** `expr::type`; JSON text (`jsonFromText`) casts from its text: to `text` it is the text. */
  cast: (expr: SqlExpr, type: PgType): SqlExpr => {
    const builtIn = type.schema === null && type.arrayDims === 0;
    const marked = markedText(expr);
    if (marked !== null && builtIn) {
      if (type.name === 'text') return marked;
      if (type.name === 'jsonb') return { kind: 'Cast', expr: marked, type };
    }
    if (expr.kind === 'Case' && builtIn && type.name === 'text' && isJsonText(expr)) {
      return {
        kind: 'Case',
        whens: expr.whens.map((w) => ({ when: w.when, then: sql.cast(w.then, type) })),
        else: expr.else ? sql.cast(expr.else, type) : null,
      };
    }
    return { kind: 'Cast', expr, type };
  },
  param: (index: number): SqlExpr => ({ kind: 'Param', index }),
  star: (table: string | null = null): SqlExpr => ({ kind: 'Star', table }),
  field: (expr: SqlExpr, field: string): SqlExpr => ({ kind: 'FieldSelect', expr, field }),
  /** `a and b ...`; no argument is `true`, one is itself. */
  and: (...args: readonly SqlExpr[]): SqlExpr => boolOp('and', args),
  /** `a or b ...`; no argument is `false`, one is itself. */
  or: (...args: readonly SqlExpr[]): SqlExpr => boolOp('or', args),
  default: (): SqlExpr => ({ kind: 'DefaultValue' }),
  scalar: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'scalar', query }),
  exists: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'exists', query }),
  array: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'array', query }),
  anySub: (left: SqlExpr, op: string, query: SqlQuery): SqlExpr => ({
    kind: 'AnySubLink',
    left,
    op,
    query,
  }),
  order: (
    expr: SqlExpr,
    direction: OrderItem['direction'] = null,
    nulls: OrderItem['nulls'] = null,
  ): OrderItem => ({ expr, direction, nulls }),
  target: (expr: SqlExpr, alias: string | null = null): Target => ({ expr, alias }),
  table: (schema: string | null, name: string, alias: string | null = null): FromItem => ({
    kind: 'TableFrom',
    table: { schema, name },
    alias,
  }),
  subquery: (
    query: SqlQuery,
    alias: string,
    options: { columns?: readonly string[]; lateral?: boolean } = {},
  ): FromItem => ({
    kind: 'SubqueryFrom',
    query,
    alias,
    columns: options.columns ?? null,
    lateral: options.lateral ?? false,
  }),
  fromFunction: (
    call: SqlExpr,
    alias: string | null,
    options: { columns?: readonly ColumnAlias[]; withOrdinality?: boolean; lateral?: boolean } = {},
  ): FromItem => ({
    kind: 'FunctionFrom',
    call,
    alias,
    columns: options.columns ?? null,
    withOrdinality: options.withOrdinality ?? false,
    lateral: options.lateral ?? false,
  }),
  /**
   * The elements of an array in order: `<call> with ordinality as alias(value, ord)`, where
   * `call` unnests it (`unnest(a)`, `jsonb_array_elements(j)`).
   */
  items: (call: SqlExpr, alias: string): FromItem => ({
    kind: 'FunctionFrom',
    call,
    alias,
    columns: [
      { name: 'value', type: null },
      { name: 'ord', type: null },
    ],
    withOrdinality: true,
    lateral: false,
  }),
  join: (
    type: 'inner' | 'left' | 'right' | 'full',
    left: FromItem,
    right: FromItem,
    on: SqlExpr,
  ): FromItem => ({ kind: 'JoinFrom', type, left, right, on }),
  crossJoin: (left: FromItem, right: FromItem): FromItem => ({
    kind: 'JoinFrom',
    type: 'cross',
    left,
    right,
    on: null,
  }),
  cte: (
    name: string,
    query: SqlStatement,
    options: { columns?: readonly string[]; materialized?: boolean | null } = {},
  ): Cte => ({
    name,
    query,
    columns: options.columns ?? null,
    materialized: options.materialized ?? null,
  }),
  with: (ctes: readonly Cte[], recursive = false): WithClause | null =>
    ctes.length === 0 ? null : { recursive, ctes },
  /** A SELECT; every clause not given is empty. */
  select: (
    parts: Optional<
      SelectStatement,
      'with' | 'distinct' | 'from' | 'where' | 'groupBy' | 'having' | 'orderBy' | 'limit' | 'offset'
    >,
  ): SelectStatement => ({
    kind: 'Select',
    with: null,
    distinct: false,
    from: [],
    where: null,
    groupBy: [],
    having: null,
    orderBy: [],
    limit: null,
    offset: null,
    ...parts,
  }),
  setOp: (
    op: SetOperationStatement['op'],
    all: boolean,
    left: SqlQuery,
    right: SqlQuery,
    parts: Partial<Pick<SetOperationStatement, 'with' | 'orderBy' | 'limit' | 'offset'>> = {},
  ): SetOperationStatement => ({
    kind: 'SetOperation',
    op,
    all,
    left,
    right,
    with: null,
    orderBy: [],
    limit: null,
    offset: null,
    ...parts,
  }),
  values: (
    rows: readonly (readonly SqlExpr[])[],
    with_: WithClause | null = null,
  ): ValuesStatement => ({
    kind: 'Values',
    with: with_,
    rows,
  }),
  insert: (
    parts: Optional<InsertStatement, 'with' | 'alias' | 'onConflict' | 'returning'>,
  ): InsertStatement => ({
    kind: 'Insert',
    with: null,
    alias: null,
    onConflict: null,
    returning: [],
    ...parts,
  }),
  update: (
    parts: Optional<UpdateStatement, 'with' | 'alias' | 'from' | 'where' | 'returning'>,
  ): UpdateStatement => ({
    kind: 'Update',
    with: null,
    alias: null,
    from: [],
    where: null,
    returning: [],
    ...parts,
  }),
  delete: (
    parts: Optional<DeleteStatement, 'with' | 'alias' | 'using' | 'where' | 'returning'>,
  ): DeleteStatement => ({
    kind: 'Delete',
    with: null,
    alias: null,
    using: [],
    where: null,
    returning: [],
    ...parts,
  }),
};
