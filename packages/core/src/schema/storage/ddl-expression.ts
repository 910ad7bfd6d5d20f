/**
 * schema/storage/ddl-expression: compiles a scalar EdgeQL expression (`ql.Expr`) to a PostgreSQL expression for
 * DDL: column defaults (no row), CHECKs and expression indexes (the row's own columns), and
 * domain CHECKs (`VALUE`).
 *
 * Input: the expression, the Schema (custom scalars, enums, SDL functions), and a context saying
 * what `__subject__` and `.prop` mean. Output: `{ sql, type, volatility }`.
 * Invariants / semantics kept from EdgeQL:
 * - `/` on integers gives float64; `//` floors; `%` takes the divisor's sign; `^` is float64 on
 *   integers; `++` is `||`; `??` is coalesce; `?=` is `is not distinct from`;
 * - `<`, `>`, ... on str compare bytes (`COLLATE "C"`); on enums compare declaration order;
 * - checks and indexes must be immutable: a stable or volatile function there is refused with
 *   `InvalidDefinitionError`; defaults may be volatile;
 * - `global`, parameters, queries and paths beyond the row's own pointers are refused in DDL;
 * - SDL functions are inlined with their arguments substituted (item 6);
 * - errors carry the offending expression's position.
 */
import * as ql from '../../syntax';
import {
  InvalidDefinitionError,
  InvalidReferenceError,
  InvalidTypeError,
  type QueryErrorClass,
} from '../../errors';
import type { FunctionDef, ObjectType, Pointer, Schema, TypeRef } from '../model';
import { findScalar, isStdScalar, pgTypeOf, scalarPgType, splitName, stdBaseOf } from './types';
import { pgType, sql, type PgType, type SqlExpr } from '../../sql/ast';
import {
  isStdFunction,
  resolveFunction as resolveStdFunction,
  resolveCast as resolveStdCast,
  resolveOperator,
  type TypeEnv,
} from '../../std';

export type Volatility = 'immutable' | 'stable' | 'volatile';

export type ScalarMode = 'default' | 'check' | 'index' | 'domain';

/** What `__subject__` and `.prop` refer to. */
export type ScalarSubject =
  /** A default: no row. */
  | { readonly kind: 'none' }
  /**
   * A pointer constraint or a domain: `__subject__` is the value. A link's constraint also
   * reads `@prop`, `@source` and `@target` (`linkProperties`: name → column of the row).
   */
  | {
      readonly kind: 'value';
      readonly sql: SqlExpr;
      readonly type: TypeRef;
      readonly linkProperties?: ReadonlyMap<string, { sql: SqlExpr; type: TypeRef }>;
    }
  /** A type-level constraint or index: `.prop` is a column of the row. */
  | { readonly kind: 'object'; readonly type: ObjectType; readonly table: string | null };

export interface ScalarContext {
  readonly schema: Schema;
  /** The module unqualified names resolve in first (then `std`). */
  readonly module: string;
  readonly mode: ScalarMode;
  readonly subject: ScalarSubject;
  /** The type the result is stored as, when known (gives `[]` a type). */
  readonly expected?: TypeRef | null;
}

export interface Compiled {
  readonly sql: SqlExpr;
  /** Null when not known (e.g. a json path). */
  readonly type: TypeRef | null;
  readonly volatility: Volatility;
}

/**
 * The ISO 8601 text of date and time types: std's own output functions (std/bootstrap), so a
 * default or constraint renders a datetime exactly as a query does (UTC, no session setting).
 */
const ISO_TEXT: Readonly<Record<string, string>> = {
  'std::datetime': 'datetime_iso',
  'cal::local_datetime': 'local_datetime_iso',
  'cal::local_date': 'local_date_iso',
};

export function compileScalar(expr: ql.Expr, ctx: ScalarContext): Compiled {
  const compiled = new ScalarCompiler(ctx).compile(expr, new Map(), ctx.expected ?? null, 0);
  if (
    (ctx.mode === 'check' || ctx.mode === 'index' || ctx.mode === 'domain') &&
    compiled.volatility !== 'immutable'
  ) {
    throw new InvalidDefinitionError(
      `${ctx.mode === 'index' ? 'an index' : 'a constraint'} expression must be immutable, but \`${ql.printExpression(expr)}\` is ${compiled.volatility}`,
      {
        position: pos(expr),
        hint: 'functions such as datetime_current() give a different value each time; use them in a default instead',
      },
    );
  }
  return compiled;
}

// ---------------------------------------------------------------------------------------------

const scalar = (name: string): TypeRef => ({ kind: 'scalar', name });
const STR = scalar('std::str');
const BOOL = scalar('std::bool');
const INT64 = scalar('std::int64');
const FLOAT64 = scalar('std::float64');
const DECIMAL = scalar('std::decimal');
const BIGINT = scalar('std::bigint');
const BYTES = scalar('std::bytes');
const JSON_T = scalar('std::json');
const UUID = scalar('std::uuid');

const INTS = new Set(['std::int16', 'std::int32', 'std::int64', 'std::sequence']);
const FLOATS = new Set(['std::float32', 'std::float64']);
const EXACT = new Set(['std::decimal', 'std::bigint']);

function pos(
  node: { span?: ql.Span } | null | undefined,
): { line: number; column: number } | undefined {
  const span = node?.span;
  return span ? { line: span.start.line, column: span.start.column } : undefined;
}

function maxVolatility(...values: Volatility[]): Volatility {
  if (values.includes('volatile')) return 'volatile';
  if (values.includes('stable')) return 'stable';
  return 'immutable';
}

type Env = ReadonlyMap<string, Compiled>;

const typeEnvs = new WeakMap<Schema, TypeEnv>();

/** Custom scalars, enums and object ancestry of a schema, as std's resolver sees them (one per
 * schema, so std's resolution cache is shared by every expression of it). */
function typeEnv(schema: Schema): TypeEnv {
  let env = typeEnvs.get(schema);
  if (!env) {
    env = newTypeEnv(schema);
    typeEnvs.set(schema, env);
  }
  return env;
}

function newTypeEnv(schema: Schema): TypeEnv {
  return {
    stdBase: (name) => stdBaseOf(schema, name),
    enumValues: (name) =>
      isStdScalar(name) ? null : (findScalar(schema, name)?.enumValues ?? null),
    commonObject: (a, b) => {
      const lineage = (n: string) => [
        n,
        ...(schema.objectTypes.find((t) => t.name === n)?.ancestors ?? []),
      ];
      const other = new Set(lineage(b));
      return lineage(a).find((n) => other.has(n)) ?? null;
    },
  };
}

/** EdgeQL's short names of std types in casts. */
function stdTypeName(ref: ql.ObjectRef): string | null {
  const name = ref.module === null ? `std::${ref.name}` : `${ref.module}::${ref.name}`;
  return isStdScalar(name) ? name : null;
}

export class ScalarCompiler {
  constructor(readonly ctx: ScalarContext) {}

  fail(
    cls: QueryErrorClass,
    message: string,
    node: { span?: ql.Span } | null,
    hint?: string,
  ): never {
    throw new cls(message, { position: pos(node), hint });
  }

  /** The std scalar a type is stored as, or null. */
  baseName(type: TypeRef | null): string | null {
    if (!type || type.kind !== 'scalar') return null;
    return stdBaseOf(this.ctx.schema, type.name);
  }

  isEnum(type: TypeRef | null): readonly string[] | null {
    if (!type || type.kind !== 'scalar' || isStdScalar(type.name)) return null;
    return findScalar(this.ctx.schema, type.name)?.enumValues ?? null;
  }

  compile(expr: ql.Expr, env: Env, expected: TypeRef | null, depth: number): Compiled {
    if (depth > 32)
      this.fail(InvalidDefinitionError, 'functions nest too deeply (recursive function?)', expr);
    const sub = (e: ql.Expr, exp: TypeRef | null = null) => this.compile(e, env, exp, depth + 1);
    switch (expr.kind) {
      case 'Constant':
        return this.constant(expr);
      case 'BytesConstant':
        return { sql: sql.bytes(expr.value), type: BYTES, volatility: 'immutable' };
      case 'ArrayLiteral': {
        const element = expected?.kind === 'array' ? expected.element : null;
        const items = expr.elements.map((e) => sub(e, element));
        const type: TypeRef | null = items[0]?.type
          ? { kind: 'array', element: items[0].type }
          : expected;
        if (type?.kind === 'array' && pgTypeOf(type).name === 'jsonb') {
          return {
            sql: sql.func(
              'jsonb_build_array',
              items.map((i) => this.toJson(i)),
            ),
            type,
            volatility: maxVolatility(...items.map((i) => i.volatility)),
          };
        }
        if (items.length === 0 && !type) {
          this.fail(
            InvalidTypeError,
            'an empty array needs a type here: write <array<str>>[]',
            expr,
          );
        }
        return {
          sql: {
            kind: 'ArrayExpr',
            elements: items.map((i) => i.sql),
            type: items.length === 0 && type ? pgTypeOf(type) : null,
          },
          type,
          volatility: maxVolatility(...items.map((i) => i.volatility)),
        };
      }
      case 'TupleLiteral':
      case 'NamedTupleLiteral': {
        const values =
          expr.kind === 'TupleLiteral' ? expr.elements : expr.elements.map((e) => e.value);
        const names = expr.kind === 'TupleLiteral' ? null : expr.elements.map((e) => e.name);
        const expectedElements = expected?.kind === 'tuple' ? expected.elements : [];
        const items = values.map((e, i) => sub(e, expectedElements[i]?.type ?? null));
        const type: TypeRef = {
          kind: 'tuple',
          elements: items.map((item, i) => ({ name: names?.[i] ?? null, type: item.type ?? STR })),
        };
        // Tuples are stored as jsonb arrays (schema/storage/types); a row value is used only
        // where tuples are compared, which jsonb arrays do element by element too.
        return {
          sql: sql.func(
            'jsonb_build_array',
            items.map((i) => this.toJson(i)),
          ),
          type,
          volatility: maxVolatility(...items.map((i) => i.volatility)),
        };
      }
      case 'SetLiteral': {
        if (expr.elements.length === 0)
          return { sql: sql.null(), type: expected, volatility: 'immutable' };
        if (expr.elements.length === 1) return sub(expr.elements[0] as ql.Expr, expected);
        return this.fail(
          InvalidDefinitionError,
          'a set of several values can only be the right side of `in` here',
          expr,
        );
      }
      case 'Parameter':
        return this.fail(
          InvalidDefinitionError,
          `query parameters ($${expr.name}) cannot be used in a schema definition`,
          expr,
        );
      case 'GlobalRef':
        return this.fail(
          InvalidDefinitionError,
          `global ${ql.printExpression(expr.name)} cannot be used in a ${this.ctx.mode === 'default' ? 'column default' : 'constraint or index'}`,
          expr,
          'globals are per-request values; PostgreSQL defaults, checks and indexes cannot see them',
        );
      case 'Anchor':
        return this.anchor(expr);
      case 'ObjectRef': {
        if (expr.module === null) {
          const bound = env.get(expr.name);
          if (bound) return bound;
        }
        return this.fail(
          InvalidReferenceError,
          `'${expr.module ? `${expr.module}::` : ''}${expr.name}' does not exist here`,
          expr,
          this.ctx.subject.kind === 'object'
            ? `to refer to the object's property write .${expr.name}`
            : undefined,
        );
      }
      case 'Path':
        return this.path(expr, env);
      case 'TypeCast':
        return this.cast(expr, env, depth);
      case 'UnaryOp': {
        const operand = sub(expr.operand);
        if (expr.op === 'not' || expr.op === '-' || expr.op === '+') {
          resolveOperator(expr.op, [{ type: operand.type }], {
            env: typeEnv(this.ctx.schema),
            position: pos(expr),
          });
        }
        switch (expr.op) {
          case 'not':
            return { ...operand, sql: sql.not(operand.sql), type: BOOL };
          case '-':
            return { ...operand, sql: { kind: 'UnaryOp', op: '-', operand: operand.sql } };
          case '+':
            return operand;
          case 'exists':
            return { ...operand, sql: sql.isNull(operand.sql, true), type: BOOL };
          case 'distinct':
            return operand;
        }
        break;
      }
      case 'BinOp':
        return this.binop(expr, env, expected, depth);
      case 'IfElse': {
        const condition = sub(expr.condition);
        const then = sub(expr.ifExpr, expected);
        const otherwise = sub(expr.elseExpr, expected ?? then.type);
        return {
          sql: {
            kind: 'Case',
            whens: [{ when: condition.sql, then: then.sql }],
            else: otherwise.sql,
          },
          type: then.type ?? otherwise.type,
          volatility: maxVolatility(condition.volatility, then.volatility, otherwise.volatility),
        };
      }
      case 'FunctionCall':
        return this.call(expr, env, depth);
      case 'Index': {
        const subject = sub(expr.subject);
        const index = sub(expr.index);
        const volatility = maxVolatility(subject.volatility, index.volatility);
        const base = this.baseName(subject.type);
        if (base === 'std::json')
          return { sql: sql.bin('->', subject.sql, index.sql), type: JSON_T, volatility };
        const length =
          subject.type?.kind === 'array'
            ? sql.func('cardinality', [subject.sql])
            : sql.func('char_length', [subject.sql]);
        const constant = expr.index.kind === 'Constant' ? Number(expr.index.value) : null;
        const oneBased: SqlExpr =
          constant !== null && constant >= 0
            ? sql.num(constant + 1)
            : constant !== null
              ? sql.bin('+', length, sql.num(constant + 1))
              : {
                  kind: 'Case',
                  whens: [
                    {
                      when: sql.bin('<', index.sql, sql.num(0)),
                      then: sql.bin('+', sql.bin('+', length, index.sql), sql.num(1)),
                    },
                  ],
                  else: sql.bin('+', index.sql, sql.num(1)),
                };
        if (subject.type?.kind === 'array') {
          return {
            sql: { kind: 'Subscript', expr: subject.sql, index: oneBased },
            type: subject.type.element,
            volatility,
          };
        }
        return {
          sql: sql.func('substr', [subject.sql, oneBased, sql.num(1)]),
          type: STR,
          volatility,
        };
      }
      case 'Slice':
        return this.slice(expr, sub);
      case 'Detached':
      case 'Shape':
      case 'IsOp':
      case 'Introspect':
        return this.fail(
          InvalidDefinitionError,
          `\`${ql.printExpression(expr)}\` is not supported in a schema ${this.what()}`,
          expr,
        );
      default:
        return this.fail(
          InvalidDefinitionError,
          `a query cannot be used in a schema ${this.what()}: \`${ql.printExpression(expr)}\``,
          expr,
          'defaults, constraints and indexes are compiled to PostgreSQL column defaults, CHECKs and indexes, which see only the row',
        );
    }
    return this.fail(
      InvalidDefinitionError,
      `unsupported expression \`${ql.printExpression(expr)}\``,
      expr,
    );
  }

  /**
   * `s[a:b]` of a str or an array: Gel's bounds (negative ones count from the end, both clamped
   * to the length, empty when they cross), as 0-based offsets `lo` and `hi`.
   */
  slice(expr: ql.Slice, sub: (e: ql.Expr) => Compiled): Compiled {
    const subject = sub(expr.subject);
    const isArray = subject.type?.kind === 'array';
    const base = this.baseName(subject.type);
    if (!isArray && base !== 'std::str' && base !== 'std::bytes' && base !== 'std::json') {
      return this.fail(
        InvalidDefinitionError,
        `\`${ql.printExpression(expr)}\` is not supported in a schema ${this.what()}`,
        expr,
      );
    }
    let volatility = subject.volatility;
    if (base === 'std::json') {
      const bounds = [expr.start, expr.stop].map((e) => {
        if (e === null) return sql.cast(sql.null(), pgType('bigint'));
        const b = sub(e);
        volatility = maxVolatility(volatility, b.volatility);
        return b.sql;
      });
      return {
        sql: sql.func('json_slice', [subject.sql, ...bounds], 'svc_meta'),
        type: subject.type,
        volatility,
      };
    }
    const length = isArray
      ? sql.func('coalesce', [sql.func('cardinality', [subject.sql]), sql.num(0)])
      : base === 'std::bytes'
        ? sql.func('length', [subject.sql])
        : sql.func('char_length', [subject.sql]);
    const bound = (e: ql.Expr | null, fallback: SqlExpr): SqlExpr => {
      if (e === null) return fallback;
      const b = sub(e);
      volatility = maxVolatility(volatility, b.volatility);
      const fromEnd = sql.func('greatest', [sql.bin('+', length, b.sql), sql.num(0)]);
      const fromStart = sql.func('least', [b.sql, length]);
      return {
        kind: 'Case',
        whens: [{ when: sql.bin('<', b.sql, sql.num(0)), then: fromEnd }],
        else: fromStart,
      };
    };
    const lo = bound(expr.start, sql.num(0));
    const hi = bound(expr.stop, length);
    if (isArray) {
      return {
        sql: { kind: 'Slice', expr: subject.sql, lower: sql.bin('+', lo, sql.num(1)), upper: hi },
        type: subject.type,
        volatility,
      };
    }
    const count = sql.func('greatest', [sql.bin('-', hi, lo), sql.num(0)]);
    return {
      sql: sql.func('substr', [subject.sql, sql.bin('+', lo, sql.num(1)), count]),
      type: subject.type,
      volatility,
    };
  }

  what(): string {
    return this.ctx.mode === 'default'
      ? 'default'
      : this.ctx.mode === 'index'
        ? 'index'
        : 'constraint';
  }

  constant(expr: ql.Constant): Compiled {
    switch (expr.scalar) {
      case 'str':
        return { sql: sql.text(expr.value), type: STR, volatility: 'immutable' };
      case 'bool':
        return { sql: sql.bool(expr.value === 'true'), type: BOOL, volatility: 'immutable' };
      case 'int64':
        return { sql: sql.num(expr.value), type: INT64, volatility: 'immutable' };
      case 'float64':
        return {
          sql: sql.cast(sql.num(expr.value), pgType('double precision')),
          type: FLOAT64,
          volatility: 'immutable',
        };
      case 'bigint':
        return {
          sql: sql.cast(sql.num(expr.value), pgType('numeric')),
          type: BIGINT,
          volatility: 'immutable',
        };
      case 'decimal':
        return {
          sql: sql.cast(sql.num(expr.value), pgType('numeric')),
          type: DECIMAL,
          volatility: 'immutable',
        };
    }
  }

  anchor(expr: ql.Anchor): Compiled {
    const subject = this.ctx.subject;
    if (expr.name === '__subject__') {
      if (subject.kind === 'value')
        return { sql: subject.sql, type: subject.type, volatility: 'immutable' };
      if (subject.kind === 'object') {
        return this.fail(
          InvalidDefinitionError,
          'an object cannot be used as a value in a constraint or index; refer to its properties (.name)',
          expr,
        );
      }
    }
    return this.fail(
      InvalidReferenceError,
      `${expr.name} cannot be used in a schema ${this.what()}`,
      expr,
    );
  }

  path(expr: ql.Path, env: Env): Compiled {
    // Enum literal: `Color.Red`, `default::Color.Red`.
    if (
      expr.subject?.kind === 'ObjectRef' &&
      expr.steps.length === 1 &&
      !(expr.subject.module === null && env.has(expr.subject.name))
    ) {
      const step = expr.steps[0] as ql.PathStep;
      const scalarType = this.resolveScalar(expr.subject);
      if (scalarType && step.kind === 'Ptr' && step.via === '.') {
        const values = findScalar(this.ctx.schema, scalarType)?.enumValues;
        if (!values) this.fail(InvalidTypeError, `${scalarType} is not an enum`, expr);
        if (!values.includes(step.name)) {
          this.fail(
            InvalidReferenceError,
            `${scalarType} has no value '${step.name}'`,
            step,
            `its values are ${values.join(', ')}`,
          );
        }
        return { sql: sql.text(step.name), type: scalar(scalarType), volatility: 'immutable' };
      }
    }
    let objectSubject: ObjectType | null = null;
    let table: string | null = null;
    if (
      expr.subject === null ||
      (expr.subject.kind === 'Anchor' && expr.subject.name === '__subject__')
    ) {
      const [first, ...rest] = expr.steps;
      const linkProperty =
        this.ctx.subject.kind === 'value' && first?.kind === 'Ptr' && first.via === '@'
          ? this.ctx.subject.linkProperties?.get(first.name)
          : undefined;
      if (linkProperty && rest.length === 0) {
        return { sql: linkProperty.sql, type: linkProperty.type, volatility: 'immutable' };
      }
      if (this.ctx.subject.kind === 'object') {
        objectSubject = this.ctx.subject.type;
        table = this.ctx.subject.table;
      } else if (
        this.ctx.subject.kind === 'value' &&
        expr.subject !== null &&
        this.ctx.subject.type.kind === 'tuple'
      ) {
        return this.tupleElement(this.anchor(expr.subject as ql.Anchor), expr.steps, expr);
      }
    } else {
      const base = this.compile(expr.subject, env, null, 0);
      if (base.type?.kind === 'tuple') return this.tupleElement(base, expr.steps, expr);
    }
    if (!objectSubject) {
      return this.fail(
        InvalidDefinitionError,
        `the path \`${ql.printExpression(expr)}\` cannot be used in a schema ${this.what()}`,
        expr,
      );
    }
    const [first, ...rest] = expr.steps;
    if (!first || first.kind !== 'Ptr' || first.via !== '.' || rest.length > 0) {
      return this.fail(
        InvalidDefinitionError,
        `only the object's own properties and links (.name) can be used in a ${this.what()}, not \`${ql.printExpression(expr)}\``,
        expr,
        'PostgreSQL CHECKs and indexes see one row; a path through a link needs another table',
      );
    }
    const pointer = objectSubject.pointers.find((p) => p.name === first.name);
    if (!pointer) {
      return this.fail(
        InvalidReferenceError,
        `${objectSubject.name} has no property or link '${first.name}'`,
        first,
      );
    }
    return this.pointerColumn(pointer, table, first);
  }

  pointerColumn(pointer: Pointer, table: string | null, node: ql.Node): Compiled {
    // A single computed property over the row is its expression (`name := .first ++ .last`).
    if (pointer.computed && pointer.kind === 'property' && pointer.cardinality === 'one') {
      return this.compile(pointer.computed, new Map(), null, 0);
    }
    if (pointer.computed) {
      return this.fail(
        InvalidDefinitionError,
        `computed ${pointer.kind} '${pointer.name}' has no column and cannot be used in a ${this.what()}`,
        node,
      );
    }
    if (pointer.cardinality === 'many') {
      return this.fail(
        InvalidDefinitionError,
        `multi ${pointer.kind} '${pointer.name}' is stored in its own table and cannot be used in a ${this.what()}`,
        node,
      );
    }
    const type: TypeRef = pointer.kind === 'link' ? UUID : pointer.target;
    return { sql: sql.col(pointer.name, table), type, volatility: 'immutable' };
  }

  tupleElement(base: Compiled, steps: readonly ql.PathStep[], node: ql.Node): Compiled {
    let current = base;
    for (const step of steps) {
      if (step.kind !== 'Ptr' || step.via !== '.' || current.type?.kind !== 'tuple') {
        return this.fail(
          InvalidDefinitionError,
          `\`${ql.printExpression(node as ql.Expr)}\` is not supported in a schema ${this.what()}`,
          node,
        );
      }
      const elements = current.type.elements;
      const index = /^\d+$/.test(step.name)
        ? Number(step.name)
        : elements.findIndex((e) => e.name === step.name);
      const element = elements[index];
      if (!element)
        return this.fail(InvalidReferenceError, `the tuple has no element '${step.name}'`, step);
      const text = sql.bin('->>', current.sql, sql.num(index));
      current = {
        sql: this.fromJsonText(text, element.type),
        type: element.type,
        volatility: current.volatility,
      };
    }
    return current;
  }

  /** A jsonb element read as text → its EdgeQL type. */
  fromJsonText(text: SqlExpr, type: TypeRef): SqlExpr {
    if (type.kind === 'scalar' && this.baseName(type) === 'std::str') return text;
    return sql.cast(text, pgTypeOf(type));
  }

  toJson(value: Compiled): SqlExpr {
    return value.sql;
  }

  resolveScalar(ref: ql.ObjectRef): string | null {
    if (ref.module === null) {
      const local = `${this.ctx.module}::${ref.name}`;
      if (findScalar(this.ctx.schema, local)) return local;
      const std = `std::${ref.name}`;
      return isStdScalar(std) ? std : null;
    }
    const name = `${ref.module}::${ref.name}`;
    return findScalar(this.ctx.schema, name) || isStdScalar(name) ? name : null;
  }

  resolveType(type: ql.TypeExpr): TypeRef {
    if (type.kind !== 'TypeName')
      return this.fail(
        InvalidTypeError,
        `\`${ql.printType(type)}\` cannot be used in a schema ${this.what()}`,
        type,
      );
    const ref = type.name;
    if (ref.module === null && ref.name === 'array' && type.subtypes.length === 1) {
      return { kind: 'array', element: this.resolveType(type.subtypes[0] as ql.TypeExpr) };
    }
    if (ref.module === null && ref.name === 'tuple') {
      return {
        kind: 'tuple',
        elements: type.subtypes.map((s) =>
          s.kind === 'NamedSubtype'
            ? { name: s.name, type: this.resolveType(s.type) }
            : { name: null, type: this.resolveType(s) },
        ),
      };
    }
    const std = stdTypeName(ref);
    if (
      std &&
      (ref.module !== null || !findScalar(this.ctx.schema, `${this.ctx.module}::${ref.name}`))
    )
      return scalar(std);
    const name = this.resolveScalar(ref);
    if (!name)
      return this.fail(InvalidReferenceError, `type '${ql.printType(type)}' does not exist`, type);
    return scalar(name);
  }

  cast(expr: ql.TypeCast, env: Env, depth: number): Compiled {
    const target = this.resolveType(expr.type);
    const value = this.compile(expr.expr, env, target, depth + 1);
    // Which casts exist is std's rule (`<bytes>'x'` is refused, item 4); tuples are stored as
    // jsonb here and keep their own conversion.
    const scalarLike = (t: TypeRef | null): boolean =>
      t !== null && (t.kind === 'scalar' || (t.kind === 'array' && scalarLike(t.element)));
    if (scalarLike(value.type) && scalarLike(target)) {
      resolveStdCast(value.type as TypeRef, target, typeEnv(this.ctx.schema), pos(expr));
    }
    return { sql: this.castSql(value, target, expr), type: target, volatility: value.volatility };
  }

  /** `<target>value` with EdgeQL meaning where PostgreSQL's differs. */
  castSql(value: Compiled, target: TypeRef, node: ql.Node): SqlExpr {
    const from = this.baseName(value.type);
    if (
      target.kind === 'array' &&
      value.sql.kind === 'ArrayExpr' &&
      value.sql.elements.length === 0
    ) {
      return { ...value.sql, type: pgTypeOf(target) };
    }
    if (target.kind === 'tuple') return value.sql;
    const to = target.kind === 'scalar' ? stdBaseOf(this.ctx.schema, target.name) : null;
    // Dates and times as text never depend on the session (DateStyle, TimeZone): ISO 8601,
    // datetimes in UTC.
    const iso = from ? ISO_TEXT[from] : undefined;
    if (iso && (to === 'std::str' || to === 'std::json')) {
      const text = sql.func(iso, [value.sql], 'svc_meta');
      return to === 'std::json' ? sql.func('to_jsonb', [text]) : text;
    }
    if (to === 'std::json') {
      if (from === 'std::json') return value.sql;
      const arg =
        value.sql.kind === 'Literal' && value.sql.type === 'text'
          ? sql.cast(value.sql, pgType('text'))
          : value.sql;
      return sql.func('to_jsonb', [arg]);
    }
    if (from === 'std::json' && target.kind === 'scalar') {
      const text = sql.bin('#>>', value.sql, sql.text('{}'));
      return to === 'std::str' && isStdScalar(target.name)
        ? text
        : sql.cast(text, scalarPgType(target.name));
    }
    if (to === 'std::bool' && from === 'std::str') {
      // EdgeQL accepts only 'true'/'false' (any case), which PostgreSQL also accepts, plus more.
      return sql.cast(value.sql, pgType('boolean'));
    }
    const targetType: PgType = pgTypeOf(target);
    if (
      value.sql.kind === 'Literal' &&
      value.sql.type === 'text' &&
      target.kind === 'scalar' &&
      !isStdScalar(target.name)
    ) {
      return sql.cast(value.sql, targetType);
    }
    void node;
    return sql.cast(value.sql, targetType);
  }

  binop(expr: ql.BinOp, env: Env, expected: TypeRef | null, depth: number): Compiled {
    const sub = (e: ql.Expr, exp: TypeRef | null = null) => this.compile(e, env, exp, depth + 1);
    if (expr.op === 'in' || expr.op === 'not in') {
      const left = sub(expr.left);
      const rightItems = expr.right.kind === 'SetLiteral' ? expr.right.elements : [expr.right];
      const items = rightItems.map((e) => sub(e, left.type));
      if (expr.right.kind !== 'SetLiteral' && items[0]?.type?.kind === 'array') {
        this.fail(
          InvalidDefinitionError,
          '`in` takes a set; to test an array use contains(array, value)',
          expr.right,
        );
      }
      return {
        sql: {
          kind: 'InList',
          expr: left.sql,
          list: items.map((i) => i.sql),
          negated: expr.op === 'not in',
        },
        type: BOOL,
        volatility: maxVolatility(left.volatility, ...items.map((i) => i.volatility)),
      };
    }
    const left = sub(expr.left, expr.op === '??' ? expected : null);
    const right = sub(
      expr.right,
      expr.op === '??' || expr.op === '++' ? (left.type ?? expected) : left.type,
    );
    const volatility = maxVolatility(left.volatility, right.volatility);
    const lb = this.baseName(left.type);
    const rb = this.baseName(right.type);
    const bothInt = lb !== null && rb !== null && INTS.has(lb) && INTS.has(rb);
    const anyFloat = (lb !== null && FLOATS.has(lb)) || (rb !== null && FLOATS.has(rb));
    const numericType = (): TypeRef | null => {
      if (bothInt) return INT64;
      if (anyFloat) return FLOAT64;
      if ((lb && EXACT.has(lb)) || (rb && EXACT.has(rb)))
        return lb === 'std::bigint' && rb === 'std::bigint' ? BIGINT : DECIMAL;
      return left.type;
    };
    // The result type is std's (the same overload resolution as queries and schema inference);
    // `??` is a set operator, not in the table.
    const typed =
      expr.op === '??'
        ? null
        : resolveOperator(expr.op, [{ type: left.type }, { type: right.type }], {
            env: typeEnv(this.ctx.schema),
            position: pos(expr),
          }).returnType;
    const out = (s: SqlExpr, type: TypeRef | null): Compiled => ({
      sql: s,
      type: typed ?? type,
      volatility,
    });
    const intOperand = (c: Compiled): SqlExpr =>
      c.sql.kind === 'Literal' && c.type && this.baseName(c.type) === 'std::int64'
        ? sql.cast(c.sql, pgType('bigint'))
        : c.sql;
    switch (expr.op) {
      case 'and':
      case 'or':
        return out(sql.bin(expr.op, left.sql, right.sql), BOOL);
      case '=':
      case '!=':
        return out(sql.bin(expr.op === '=' ? '=' : '<>', left.sql, right.sql), BOOL);
      case '?=':
        return out(sql.bin('is not distinct from', left.sql, right.sql), BOOL);
      case '?!=':
        return out(sql.bin('is distinct from', left.sql, right.sql), BOOL);
      case '<':
      case '>':
      case '<=':
      case '>=': {
        const values = this.isEnum(left.type) ?? this.isEnum(right.type);
        if (values) {
          const order = (c: SqlExpr): SqlExpr =>
            sql.func('array_position', [
              { kind: 'ArrayExpr', elements: values.map((v) => sql.text(v)), type: null },
              sql.cast(c, pgType('text')),
            ]);
          return out(sql.bin(expr.op, order(left.sql), order(right.sql)), BOOL);
        }
        if (lb === 'std::str' || rb === 'std::str') {
          return out(
            sql.bin(expr.op, { kind: 'Collate', expr: left.sql, collation: 'C' }, right.sql),
            BOOL,
          );
        }
        return out(sql.bin(expr.op, left.sql, right.sql), BOOL);
      }
      case 'like':
      case 'not like':
      case 'ilike':
      case 'not ilike':
        return out(sql.bin(expr.op, left.sql, right.sql), BOOL);
      case '??':
        return out(sql.func('coalesce', [left.sql, right.sql]), left.type ?? right.type);
      case '++':
        return out(sql.bin('||', left.sql, right.sql), left.type ?? right.type);
      case '+':
      case '-':
      case '*':
        if (bothInt) return out(sql.bin(expr.op, intOperand(left), intOperand(right)), INT64);
        return out(sql.bin(expr.op, left.sql, right.sql), numericType() ?? right.type);
      case '/':
        if (bothInt)
          return out(
            sql.bin('/', sql.cast(left.sql, pgType('double precision')), right.sql),
            FLOAT64,
          );
        return out(sql.bin('/', left.sql, right.sql), numericType());
      case '//':
        if (bothInt) {
          return out(
            sql.cast(
              sql.func('floor', [sql.bin('/', sql.cast(left.sql, pgType('numeric')), right.sql)]),
              pgType('bigint'),
            ),
            INT64,
          );
        }
        return out(sql.func('floor', [sql.bin('/', left.sql, right.sql)]), numericType());
      case '%':
        if (anyFloat) {
          // a - floor(a / b) * b: PostgreSQL has no % on double precision.
          return out(
            sql.bin(
              '-',
              left.sql,
              sql.bin('*', sql.func('floor', [sql.bin('/', left.sql, right.sql)]), right.sql),
            ),
            FLOAT64,
          );
        }
        // ((a % b) + b) % b: the result takes the divisor's sign, as in EdgeQL.
        return out(
          sql.bin(
            '%',
            sql.bin('+', sql.bin('%', intOperand(left), intOperand(right)), intOperand(right)),
            intOperand(right),
          ),
          numericType(),
        );
      case '^': {
        if (lb && EXACT.has(lb) && rb && EXACT.has(rb))
          return out(sql.func('power', [left.sql, right.sql]), DECIMAL);
        const f = (c: SqlExpr) => sql.cast(c, pgType('double precision'));
        return out(sql.func('power', [f(left.sql), f(right.sql)]), FLOAT64);
      }
      default:
        return this.fail(
          InvalidDefinitionError,
          `\`${expr.op}\` is not supported in a schema ${this.what()}`,
          expr,
        );
    }
  }

  call(expr: ql.FunctionCall, env: Env, depth: number): Compiled {
    const ref = expr.func;
    const userFunction = this.resolveFunction(ref);
    if (userFunction) return this.inline(userFunction, expr, env, depth);
    const qualified = ref.module === null ? `std::${ref.name}` : `${ref.module}::${ref.name}`;
    if (!isStdFunction(qualified)) {
      return this.fail(
        InvalidReferenceError,
        `function '${qualified}' does not exist or cannot be used in a schema ${this.what()}`,
        ref,
      );
    }
    // DDL is std's restricted mode: the same overloads, element-wise ones only (a default, a
    // CHECK or an index sees one row), immutable where PostgreSQL needs it (compileScalar).
    const args = expr.args.map((a) => this.compile(a, env, null, depth + 1));
    const named = expr.namedArgs.map((a) => ({
      name: a.name,
      value: this.compile(a.value, env, null, depth + 1),
    }));
    const resolved = resolveStdFunction(
      qualified,
      [
        ...args.map((a) => ({ type: a.type })),
        ...named.map((a) => ({ type: a.value.type, name: a.name })),
      ],
      { env: typeEnv(this.ctx.schema), position: pos(expr) },
    );
    if (!resolved.overload.ddl) {
      return this.fail(
        InvalidDefinitionError,
        `${ref.name}() works on sets and cannot be used in a schema ${this.what()}`,
        expr,
      );
    }
    const all = [...args, ...named.map((a) => a.value)];
    return {
      sql: resolved.sql(all.map((a) => a.sql)),
      type: resolved.returnType,
      volatility: maxVolatility(
        resolved.volatility.toLowerCase() as Volatility,
        ...all.map((a) => a.volatility),
      ),
    };
  }

  resolveFunction(ref: ql.ObjectRef): FunctionDef | null {
    const functions = this.ctx.schema.functions;
    const names =
      ref.module === null ? [`${this.ctx.module}::${ref.name}`] : [`${ref.module}::${ref.name}`];
    for (const name of names) {
      const found = functions.find((f) => f.name === name);
      if (found) return found;
    }
    return null;
  }

  /** SDL functions are inlined: the body compiled with the parameters bound to the arguments. */
  inline(def: FunctionDef, call: ql.FunctionCall, env: Env, depth: number): Compiled {
    if (def.returnModifier === 'set of') {
      this.fail(
        InvalidDefinitionError,
        `${def.name}() returns a set and cannot be used in a schema ${this.what()}`,
        call,
      );
    }
    const bound = new Map<string, Compiled>();
    const positional = def.params.filter((p) => p.kind === 'positional');
    if (call.args.length > positional.length) {
      this.fail(
        InvalidTypeError,
        `${def.name}() takes at most ${positional.length} positional arguments`,
        call,
      );
    }
    for (const param of def.params) {
      if (param.kind === 'variadic') {
        this.fail(
          InvalidDefinitionError,
          `variadic ${def.name}() cannot be inlined in a schema ${this.what()}`,
          call,
        );
      }
      const index = positional.indexOf(param);
      const named = call.namedArgs.find((a) => a.name === param.name);
      const arg = index >= 0 && index < call.args.length ? call.args[index] : named?.value;
      if (arg) {
        bound.set(param.name, this.compile(arg, env, param.type, depth + 1));
      } else if (param.default) {
        bound.set(param.name, this.compile(param.default, new Map(), param.type, depth + 1));
      } else if (param.typeModifier === 'optional') {
        bound.set(param.name, { sql: sql.null(), type: param.type, volatility: 'immutable' });
      } else {
        this.fail(InvalidTypeError, `${def.name}() is missing its argument '${param.name}'`, call);
      }
    }
    const [module] = splitName(def.name);
    const inner = new ScalarCompiler({ ...this.ctx, module, subject: { kind: 'none' } });
    const body = inner.compile(def.body, bound, def.returnType, depth + 1);
    return { ...body, type: body.type ?? def.returnType };
  }
}
