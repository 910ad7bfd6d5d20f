/**
 * openapi/constraints: a schema's std constraints as the JSON Schema keywords that say the same,
 * so a client (and the reference page) knows a limit before the server refuses a value.
 *
 * | constraint          | string                  | number             | array                 |
 * | ------------------- | ----------------------- | ------------------ | --------------------- |
 * | `min_len_value(n)`  | `minLength`             |                    | `minItems`            |
 * | `max_len_value(n)`  | `maxLength`             |                    | `maxItems`            |
 * | `min_value(v)`      |                         | `minimum`          |                       |
 * | `max_value(v)`      |                         | `maximum`          |                       |
 * | `min_ex_value(v)`   |                         | `exclusiveMinimum` |                       |
 * | `max_ex_value(v)`   |                         | `exclusiveMaximum` |                       |
 * | `regexp(p)`         | `pattern` (if portable) |                    |                       |
 * | `one_of(a, b, ...)` | `enum`                  | `enum`             |                       |
 *
 * Only what a keyword says exactly is mapped: literal arguments (a constant, a signed number, a
 * cast of either), constraints without `on (...)` or `except`, on a value of the keyword's JSON
 * kind (`min_value` on a datetime has no keyword; `*_len_value` on bytes counts bytes, not the
 * base64 text). Anything else is left to the server's check, which stays the authority.
 *
 * `regexp` is PostgreSQL's regular expression (ARE), `pattern` ECMA-262's; both search (neither
 * anchors). A pattern becomes `pattern` only when ECMA-262 reads it the same way: it compiles
 * in JavaScript and uses none of the forms the two read differently (POSIX classes `[[:alpha:]]`,
 * the escapes `\m \M \y \Y \A \Z`, embedded options `(?i)`, the `***:` prefix); otherwise the
 * property's description names the PostgreSQL pattern instead.
 *
 * Several constraints on one value all hold, so the stricter bound wins, enums intersect, and
 * patterns after the first go under `allOf`.
 */
import type { Constraint, ql } from '@svc/core';
import type { JsonSchema } from './json-schema';

type Literal = string | number | boolean;

/** A literal argument's value: a constant, `-`/`+` of a number, or a cast of either. */
function literal(expr: ql.Expr): Literal | undefined {
  switch (expr.kind) {
    case 'Constant': {
      if (expr.scalar === 'str') return expr.value;
      if (expr.scalar === 'bool') return expr.value === 'true';
      const n = Number(expr.value);
      // A bigint or decimal beyond a double's exact integers would be a rounded bound.
      if (!Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n)))
        return undefined;
      return n;
    }
    case 'UnaryOp': {
      if (expr.op !== '-' && expr.op !== '+') return undefined;
      const v = literal(expr.operand);
      if (typeof v !== 'number') return undefined;
      return expr.op === '-' ? -v : v;
    }
    case 'TypeCast':
      return literal(expr.expr);
    default:
      return undefined;
  }
}

/** Forms of PostgreSQL's regular expressions that ECMA-262 reads otherwise (or refuses). */
const NOT_PORTABLE = /\[\[[:.=]|\\[mMyYAZ]|\(\?[a-z]|^\*\*\*/;

/** Whether ECMA-262 reads PostgreSQL pattern `p` the same way (see the header). */
export function portablePattern(p: string): boolean {
  if (NOT_PORTABLE.test(p)) return false;
  try {
    new RegExp(p, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The JSON kind a schema describes, for choosing keywords (`exact` write forms are numbers). */
function jsonKind(schema: JsonSchema): 'string' | 'number' | 'array' | 'other' {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) return 'array';
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (types.includes('string')) return 'string';
  return 'other';
}

/** `schema` with the keywords of `constraints` (see the header) added. */
export function withConstraints(
  schema: JsonSchema,
  constraints: readonly Constraint[],
): JsonSchema {
  const kind = jsonKind(schema);
  const out: Record<string, unknown> = { ...schema };
  const patterns: string[] = [];
  const tighten = (keyword: string, value: number, stricter: (a: number, b: number) => number) => {
    const current = out[keyword];
    out[keyword] = typeof current === 'number' ? stricter(current, value) : value;
  };
  for (const c of constraints) {
    if (c.subjectExpr !== null || c.except !== null) continue;
    const args = c.args.map(literal);
    if (args.some((a) => a === undefined)) continue;
    const [arg] = args;
    switch (c.name) {
      case 'std::min_len_value':
      case 'std::max_len_value': {
        if (typeof arg !== 'number' || (kind !== 'string' && kind !== 'array')) break;
        const min = c.name === 'std::min_len_value';
        const keyword =
          kind === 'string' ? (min ? 'minLength' : 'maxLength') : min ? 'minItems' : 'maxItems';
        tighten(keyword, arg, min ? Math.max : Math.min);
        break;
      }
      case 'std::min_value':
      case 'std::min_ex_value':
        if (typeof arg === 'number' && kind === 'number')
          tighten(c.name === 'std::min_value' ? 'minimum' : 'exclusiveMinimum', arg, Math.max);
        break;
      case 'std::max_value':
      case 'std::max_ex_value':
        if (typeof arg === 'number' && kind === 'number')
          tighten(c.name === 'std::max_value' ? 'maximum' : 'exclusiveMaximum', arg, Math.min);
        break;
      case 'std::regexp':
        if (typeof arg !== 'string' || kind !== 'string') break;
        if (portablePattern(arg)) patterns.push(arg);
        else {
          const note = `Matches the PostgreSQL regular expression \`${arg}\`.`;
          out.description =
            typeof out.description === 'string' ? `${out.description} ${note}` : note;
        }
        break;
      case 'std::one_of': {
        const wanted = kind === 'string' ? 'string' : kind === 'number' ? 'number' : undefined;
        if (wanted === undefined || !args.every((a) => typeof a === wanted)) break;
        const current = out.enum;
        out.enum = Array.isArray(current) ? current.filter((v) => args.includes(v)) : args;
        break;
      }
    }
  }
  if (patterns.length > 0) {
    const [first, ...rest] =
      typeof out.pattern === 'string' ? [out.pattern, ...patterns] : patterns;
    out.pattern = first;
    if (rest.length > 0) {
      const allOf = Array.isArray(out.allOf) ? out.allOf : [];
      out.allOf = [...allOf, ...rest.map((pattern) => ({ pattern }))];
    }
  }
  return out;
}
