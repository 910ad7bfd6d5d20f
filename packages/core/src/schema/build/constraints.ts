/**
 * build/constraints: concrete constraints (`constraint max_len_value(10)`) on pointers, scalar
 * types and object types, and the abstract constraints a schema declares.
 *
 * Input: `ConcreteConstraint` nodes, the module they were written in, and (for `checkConstraint`)
 * the type they constrain. Output: model `Constraint`s with resolved names.
 * Rules: the name must be a std constraint or a declared abstract one, with
 * the right number of arguments; `expression` always needs `on (...)`; a type-level constraint
 * needs `on (...)`; `exclusive` makes no sense on a scalar type; `*_len_value` needs a str,
 * bytes or array, `regexp` a str, `*_value` an orderable scalar, with arguments of a matching
 * type. A scalar's constraint also holds on a multi or array property of that scalar (it checks
 * every element), so nothing here rejects those.
 * Errors: `InvalidReferenceError` for an unknown constraint, else `InvalidConstraintDefinitionError`.
 */
import { printTypeRef } from '../../model/schema';
import type * as ql from '../../syntax';
import { InvalidConstraintDefinitionError, InvalidReferenceError } from '../../errors';
import type { Constraint, TypeRef } from '../../model/schema';
import { annotationsOf } from './annotations';
import { fail, type BuildContext, type Inferred } from './context';
import { candidates, hintFor } from './resolve';
import { isIntegral, isNumeric, isOrderable, stdBaseOf } from './types';

type Family = 'any' | 'orderable' | 'length' | 'str';

interface StdConstraint {
  readonly min: number;
  readonly max: number;
  /** What the constrained value must be. */
  readonly family: Family;
  /** What each argument must be: like the subject, an int64 length, or a str pattern. */
  readonly args: 'subject' | 'int' | 'str' | 'none';
}

const STD_CONSTRAINTS: Readonly<Record<string, StdConstraint>> = {
  'std::exclusive': { min: 0, max: 0, family: 'any', args: 'none' },
  'std::expression': { min: 0, max: 0, family: 'any', args: 'none' },
  'std::min_value': { min: 1, max: 1, family: 'orderable', args: 'subject' },
  'std::max_value': { min: 1, max: 1, family: 'orderable', args: 'subject' },
  'std::min_ex_value': { min: 1, max: 1, family: 'orderable', args: 'subject' },
  'std::max_ex_value': { min: 1, max: 1, family: 'orderable', args: 'subject' },
  'std::min_len_value': { min: 1, max: 1, family: 'length', args: 'int' },
  'std::max_len_value': { min: 1, max: 1, family: 'length', args: 'int' },
  'std::regexp': { min: 1, max: 1, family: 'str', args: 'str' },
  'std::one_of': { min: 1, max: Infinity, family: 'any', args: 'subject' },
};

const CONSTRAINT_FIELDS: Record<string, true> = { errmessage: true };

/** Resolves a concrete constraint's name and checks its argument count and fields. */
export function constraintOf(
  ctx: BuildContext,
  node: ql.ConcreteConstraint,
  module: string,
  declaredIn: string,
): Constraint {
  const names = candidates(node.name, module);
  const name = names.find((n) => STD_CONSTRAINTS[n] !== undefined || ctx.constraintDecls.has(n));
  if (name === undefined) {
    return fail(
      InvalidReferenceError,
      `constraint '${names[0] ?? node.name.name}' does not exist`,
      node.name.span,
      hintFor(node.name.name, [...Object.keys(STD_CONSTRAINTS), ...ctx.constraintDecls.keys()]),
    );
  }
  const [min, max] = arity(ctx, name);
  if (node.args.length < min || node.args.length > max) {
    const expected =
      min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    fail(
      InvalidConstraintDefinitionError,
      `constraint '${name}' takes ${expected} argument${min === 1 && max === 1 ? '' : 's'}, got ${node.args.length}`,
      node.name.span,
    );
  }
  let errmessage: string | null = null;
  for (const member of node.members) {
    if (member.kind !== 'SetField') continue;
    if (!CONSTRAINT_FIELDS[member.name]) {
      fail(
        InvalidConstraintDefinitionError,
        `unknown field '${member.name}' of constraint '${name}'`,
        member.span,
      );
    }
    if (member.value.kind !== 'Constant' || member.value.scalar !== 'str') {
      fail(
        InvalidConstraintDefinitionError,
        'errmessage must be a string literal',
        member.value.span,
      );
    }
    errmessage = member.value.value;
  }
  // Constraint annotations have no place in the model; resolving them still checks the names.
  annotationsOf(ctx, node.members, module);
  return {
    name,
    args: node.args,
    subjectExpr: node.on,
    except: node.except,
    delegated: node.delegated,
    errmessage,
    declaredIn,
    span: node.span,
  };
}

function arity(ctx: BuildContext, name: string): [number, number] {
  const std = STD_CONSTRAINTS[name];
  if (std) return [std.min, std.max];
  const params = ctx.constraintDecls.get(name)?.node.params ?? [];
  const required = params.filter((p) => p.default === null && p.paramKind === 'positional').length;
  const variadic = params.some((p) => p.paramKind === 'variadic');
  return [required, variadic ? Infinity : params.length];
}

export type ConstraintSite = 'pointer' | 'object' | 'scalar';

/**
 * Checks a constraint against what it constrains. `subject` is the value type (the pointer's
 * target, the scalar, or the `on (...)` expression's type), null when unknown; `args` are the
 * inferred arguments.
 */
export function checkConstraint(
  c: Constraint,
  site: ConstraintSite,
  owner: string,
  subject: TypeRef | null,
  args: readonly Inferred[],
  ctx: BuildContext,
): void {
  const std = STD_CONSTRAINTS[c.name];
  const span = c.span;
  const bad = (message: string, hint?: string): never =>
    fail(InvalidConstraintDefinitionError, message, span, hint);
  if (c.name === 'std::expression' && c.subjectExpr === null) {
    bad(
      `constraint 'std::expression' needs an expression`,
      'write: constraint expression on (__subject__ ...)',
    );
  }
  if (site === 'object' && c.subjectExpr === null) {
    bad(
      `constraint '${c.name}' of object type '${owner}' needs a subject`,
      `write: constraint ${c.name.replace(/^std::/, '')} on (.pointer)`,
    );
  }
  if (site === 'scalar' && c.name === 'std::exclusive') {
    bad(
      'exclusive constraints cannot be defined on scalar types',
      'put it on the property instead',
    );
  }
  if (!std || subject === null) return;
  const std0 = subject.kind === 'scalar' ? stdBaseOf(ctx.scalars, subject.name) : null;
  const applies: Record<Family, boolean> = {
    any: true,
    orderable: subject.kind === 'scalar' && isOrderable(std0),
    length: subject.kind === 'array' || std0 === 'std::str' || std0 === 'std::bytes',
    str: std0 === 'std::str',
  };
  if (!applies[std.family]) {
    bad(
      `constraint '${c.name}' cannot be applied to type '${printTypeRef(subject)}'`,
      std.family === 'length'
        ? 'a length constraint applies to str, bytes and arrays'
        : std.family === 'str'
          ? 'regexp applies to str values'
          : 'it applies to scalars with an order',
    );
  }
  args.forEach((arg, i) => {
    const argStd = arg.type?.kind === 'scalar' ? stdBaseOf(ctx.scalars, arg.type.name) : null;
    if (argStd === null) return;
    const ok =
      std.args === 'int'
        ? isIntegral(argStd)
        : std.args === 'str'
          ? argStd === 'std::str'
          : std.args === 'subject'
            ? std0 === null || argStd === std0 || (isNumeric(argStd) && isNumeric(std0))
            : true;
    if (!ok) {
      // What the parameter takes: an integer (a length), a str (a pattern), or a value of the
      // subject's own type (a bound).
      const expected =
        std.args === 'int'
          ? `an integer ('std::int64')`
          : std.args === 'str'
            ? `'std::str'`
            : `a value of the subject's type '${printTypeRef(subject)}'`;
      fail(
        InvalidConstraintDefinitionError,
        `argument ${i + 1} of constraint '${c.name}' is of type '${argStd}', but the constraint expects ${expected}`,
        c.args[i]?.span ?? span,
      );
    }
  });
}
