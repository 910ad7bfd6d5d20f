/**
 * storage/domains: custom scalars as domains — an enum's values, the scalar's own constraints as
 * CHECKs, and for a scalar extending `sequence` a SEQUENCE `"<Scalar>.seq"` the domain defaults to.
 */
import { InvalidConstraintDefinitionError } from '../errors';
import type { ScalarType, Schema, TypeRef } from '../model/schema';
import { pgType, sql, type PgType, type SqlExpr } from '../sql/ast';
import { pgName } from '../sql/codegen/names';
import { quoteQualified } from '../sql/codegen/quote';
import { ddlCompiler, type ScalarContext } from './ddl-compiler';
import { domainName, sequenceName } from './names';
import { findScalar, pgTypeOf, splitName } from './types';
import type { DomainLayout } from './layout-types';
import { constraintNames, spanPos } from './constraints';

export function orderDomains(schema: Schema): ScalarType[] {
  const out: ScalarType[] = [];
  const seen = new Set<string>();
  const visit = (s: ScalarType): void => {
    if (seen.has(s.name)) return;
    seen.add(s.name);
    const base = findScalar(schema, s.base);
    if (base) visit(base);
    if (!s.abstract) out.push(s);
  };
  for (const s of schema.scalarTypes) visit(s);
  return out;
}

export function domainLayout(schema: Schema, scalar: ScalarType): DomainLayout {
  const [module, short] = splitName(scalar.name);
  const name = domainName(scalar.name);
  const baseScalar = findScalar(schema, scalar.base);
  const base: PgType = scalar.enumValues
    ? pgType('text')
    : baseScalar && !baseScalar.abstract
      ? pgTypeOf({ kind: 'scalar', name: scalar.base })
      : pgTypeOf({ kind: 'scalar', name: scalar.stdBase });
  const checks: { name: string; expr: SqlExpr }[] = [];
  if (scalar.enumValues) {
    checks.push({
      name: pgName(`${short}.enum`),
      expr: {
        kind: 'InList',
        expr: { kind: 'DomainValue' },
        list: scalar.enumValues.map((v) => sql.text(v)),
        negated: false,
      },
    });
  }
  const valueType: TypeRef = { kind: 'scalar', name: scalar.stdBase };
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'domain',
    subject: { kind: 'value', type: valueType },
  };
  const own = scalar.constraints.filter(
    (c) => c.declaredIn === scalar.name || !baseScalar || baseScalar.abstract,
  );
  const named = constraintNames(own, short);
  own.forEach((c, i) => {
    if (c.name === 'std::exclusive') {
      throw new InvalidConstraintDefinitionError(
        `exclusive cannot be declared on scalar type ${scalar.name}`,
        { position: spanPos(c.span) },
      );
    }
    checks.push({ name: named[i] as string, expr: ddlCompiler().compileConstraint(c, ctx) });
  });
  const sequence = scalar.stdBase === 'std::sequence' ? sequenceName(scalar.name) : null;
  const dflt = sequence
    ? sql.func('nextval', [
        sql.cast(sql.text(quoteQualified(sequence.schema, sequence.name)), pgType('regclass')),
      ])
    : null;
  return { scalar: scalar.name, spec: { name, base, default: dflt, checks }, sequence };
}
