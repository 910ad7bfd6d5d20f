/**
 * precedence: EdgeQL operator precedence as data, from loosest to tightest binding, as in Gel's
 * `edb/edgeql/parser/grammar/precedence.py`. The parser climbs these levels and the printer uses
 * the same numbers to decide where parentheses are needed, so the two cannot drift apart.
 *
 * Notable consequences: `^` binds tighter than unary minus (`-2 ^ 2` is `-(2 ^ 2)`) and is
 * right-associative; `??` binds tighter than `*`; a cast binds tighter than `^` but looser than
 * the postfix forms (`.`, `[...]`, shapes), so `<str>x[0]` casts `x[0]`; `detached` binds tighter
 * than `.`, so `detached User.name` is `(detached User).name`. Comparison, `like`, `in` and `is`
 * are non-associative: `a = b = c` is a syntax error.
 */
import type { BinaryOperator, UnaryOperator } from './ast';

export const Precedence = {
  /** Nothing binds looser: the level of a whole expression. */
  lowest: 0,
  union: 1,
  intersect: 2,
  ifElse: 3,
  or: 4,
  and: 5,
  not: 6,
  like: 7,
  in: 8,
  compare: 10,
  is: 11,
  add: 12,
  mul: 13,
  coalesce: 14,
  typeof: 15,
  introspect: 16,
  typeOr: 17,
  typeAnd: 18,
  /** Unary `+`, `-`, `exists`, `distinct`. */
  unary: 19,
  pow: 20,
  typecast: 21,
  /** A shape after an expression: `User { name }`. */
  shape: 22,
  /** `x[i]`, `x[i:j]`, `x[is T]`. */
  bracket: 23,
  /** `.name`, `.<name`, `.?>name`, `@name`. */
  dot: 25,
  detached: 26,
  global: 27,
  /** Literals, names, calls, parenthesized expressions: never need parentheses. */
  atom: 100,
} as const;

export type Associativity = 'left' | 'right' | 'nonassoc';

export interface OperatorInfo {
  readonly precedence: number;
  readonly assoc: Associativity;
}

const P = Precedence;

export const BINARY_OPERATORS: Readonly<Record<BinaryOperator, OperatorInfo>> = {
  union: { precedence: P.union, assoc: 'left' },
  except: { precedence: P.union, assoc: 'left' },
  intersect: { precedence: P.intersect, assoc: 'left' },
  or: { precedence: P.or, assoc: 'left' },
  and: { precedence: P.and, assoc: 'left' },
  like: { precedence: P.like, assoc: 'nonassoc' },
  'not like': { precedence: P.like, assoc: 'nonassoc' },
  ilike: { precedence: P.like, assoc: 'nonassoc' },
  'not ilike': { precedence: P.like, assoc: 'nonassoc' },
  in: { precedence: P.in, assoc: 'nonassoc' },
  'not in': { precedence: P.in, assoc: 'nonassoc' },
  '=': { precedence: P.compare, assoc: 'nonassoc' },
  '!=': { precedence: P.compare, assoc: 'nonassoc' },
  '<': { precedence: P.compare, assoc: 'nonassoc' },
  '>': { precedence: P.compare, assoc: 'nonassoc' },
  '<=': { precedence: P.compare, assoc: 'nonassoc' },
  '>=': { precedence: P.compare, assoc: 'nonassoc' },
  '?=': { precedence: P.compare, assoc: 'nonassoc' },
  '?!=': { precedence: P.compare, assoc: 'nonassoc' },
  '+': { precedence: P.add, assoc: 'left' },
  '-': { precedence: P.add, assoc: 'left' },
  '++': { precedence: P.add, assoc: 'left' },
  '*': { precedence: P.mul, assoc: 'left' },
  '/': { precedence: P.mul, assoc: 'left' },
  '//': { precedence: P.mul, assoc: 'left' },
  '%': { precedence: P.mul, assoc: 'left' },
  '??': { precedence: P.coalesce, assoc: 'right' },
  '^': { precedence: P.pow, assoc: 'right' },
};

/** Prefix operators: the operand is parsed at this level (all are right-associative). */
export const UNARY_OPERATORS: Readonly<Record<UnaryOperator, number>> = {
  '+': P.unary,
  '-': P.unary,
  exists: P.unary,
  distinct: P.unary,
  not: P.not,
};

/** `is` / `is not`: a non-associative infix operator whose right side is a type. */
export const IS_OPERATOR: OperatorInfo = { precedence: P.is, assoc: 'nonassoc' };

/** `a if c else b`: right-associative. */
export const IF_ELSE_OPERATOR: OperatorInfo = { precedence: P.ifElse, assoc: 'right' };
