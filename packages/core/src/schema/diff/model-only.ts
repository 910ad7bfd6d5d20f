/**
 * schema/diff/model-only: changes that have no SQL — policies, globals, functions, aliases,
 * annotations, computed pointers — as steps without SQL.
 */
import { printTypeRef } from '../../model/schema';
import * as ql from '../../syntax';
import type { ObjectType, Schema } from '../../model/schema';
import type { MigrationStepKind } from '../../model/migration';
import type { Planner } from './planner';
import { describeScalar } from './scalars';

const canon = (value: unknown): string => JSON.stringify(ql.withoutSpans(value));

export function planModelOnly(p: Planner): void {
  const from = p.from;
  const to = p.to;
  const subjects = new Set(p.phases.flat().map((s) => s.subject));
  const byName = <T extends { name: string }>(list: readonly T[] | undefined) =>
    new Map((list ?? []).map((x) => [x.name, x]));

  // Types and their pointers.
  const oldTypes = byName(from?.objectTypes);
  const newTypes = byName(to.objectTypes);
  for (const [name, t] of newTypes) {
    const old = oldTypes.get(name);
    if (!old) {
      if (!subjects.has(name)) p.step(12, 'create type', name, `create type ${name}`, []);
    } else if (canon(typeOwn(old)) !== canon(typeOwn(t)) && !subjects.has(name)) {
      p.step(12, 'alter type', name, `alter type ${name}`, []);
    }
    for (const ptr of t.pointers.filter((x) => x.declaredIn === name)) {
      const subject = `${name}.${ptr.name}`;
      const prev = old?.pointers.find((x) => x.name === ptr.name);
      if (subjects.has(subject)) continue;
      if (!prev || prev.kind !== ptr.kind) {
        if (old)
          p.step(
            12,
            ptr.kind === 'link' ? 'create link' : 'create property',
            subject,
            `create ${ptr.computed ? 'computed ' : ''}${ptr.kind} ${subject}`,
            [],
          );
      } else if (canon(ptr) !== canon(prev)) {
        p.step(
          12,
          ptr.kind === 'link' ? 'alter link' : 'alter property',
          subject,
          `alter ${ptr.kind} ${subject}`,
          [],
        );
      }
    }
    if (old) {
      for (const prev of old.pointers.filter((x) => x.declaredIn === name)) {
        const subject = `${name}.${prev.name}`;
        if (
          subjects.has(subject) ||
          t.pointers.some((x) => x.name === prev.name && x.kind === prev.kind)
        )
          continue;
        p.step(
          12,
          prev.kind === 'link' ? 'drop link' : 'drop property',
          subject,
          `drop ${prev.computed ? 'computed ' : ''}${prev.kind} ${subject}`,
          [],
        );
      }
    }
    // Policies are enforced by the query compiler: steps without SQL.
    const oldPolicies = new Map(
      (old?.policies ?? []).filter((x) => x.declaredIn === name).map((x) => [x.name, x]),
    );
    const newPolicies = new Map(
      t.policies.filter((x) => x.declaredIn === name).map((x) => [x.name, x]),
    );
    for (const [pname, pol] of newPolicies) {
      const prev = oldPolicies.get(pname);
      if (!prev)
        p.step(
          12,
          'create policy',
          `${name}.${pname}`,
          `create access policy ${pname} on ${name} (${pol.action} ${pol.kinds.join(', ')})`,
          [],
        );
      else if (canon(prev) !== canon(pol))
        p.step(
          12,
          'alter policy',
          `${name}.${pname}`,
          `alter access policy ${pname} on ${name}`,
          [],
        );
    }
    for (const [pname] of oldPolicies) {
      if (!newPolicies.has(pname))
        p.step(12, 'drop policy', `${name}.${pname}`, `drop access policy ${pname} on ${name}`, []);
    }
  }
  for (const [name, old] of oldTypes) {
    if (newTypes.has(name) || subjects.has(name)) continue;
    p.step(12, 'drop type', name, `drop ${old.abstract ? 'abstract ' : ''}type ${name}`, []);
  }

  // Scalars whose change has no SQL (annotations, abstract scalars).
  const oldScalars = byName(from?.scalarTypes);
  for (const [name, s] of byName(to.scalarTypes)) {
    if (subjects.has(name)) continue;
    const old = oldScalars.get(name);
    if (!old) p.step(12, 'create scalar', name, describeScalar(to, name, 'create scalar'), []);
    else if (canon(old) !== canon(s)) p.step(12, 'alter scalar', name, `alter scalar ${name}`, []);
  }
  for (const [name] of oldScalars) {
    if (!to.scalarTypes.some((s) => s.name === name) && !subjects.has(name))
      p.step(12, 'drop scalar', name, `drop scalar ${name}`, []);
  }

  namedNoSql(p, from?.globals, to.globals, 'global', [
    'create global',
    'alter global',
    'drop global',
  ]);
  // Overloads share a name: a function is its name and parameter types.
  const signature = (f: Schema['functions'][number]) =>
    `${f.name}(${f.params.map((x) => printTypeRef(x.type)).join(', ')})`;
  namedNoSql(
    p,
    from?.functions,
    to.functions,
    'function',
    ['create function', 'alter function', 'drop function'],
    signature,
  );
  // There is no alias step kind: an alias is a stored query, like a view (see the report).
  namedNoSql(p, from?.aliases, to.aliases, 'alias', ['create view', 'create view', 'drop view']);
  namedNoSql(p, from?.constraints, to.constraints, 'abstract constraint', [
    'alter type',
    'alter type',
    'alter type',
  ]);
}

function typeOwn(t: ObjectType): unknown {
  const { pointers: _p, policies: _q, span: _s, ...rest } = t;
  return rest;
}

function namedNoSql<T extends { name: string }>(
  p: Planner,
  before: readonly T[] | undefined,
  after: readonly T[],
  what: string,
  [create, alter, drop]: [MigrationStepKind, MigrationStepKind, MigrationStepKind],
  key: (x: T) => string = (x) => x.name,
): void {
  const old = new Map((before ?? []).map((x) => [key(x), x]));
  for (const x of after) {
    const prev = old.get(key(x));
    if (!prev) p.step(12, create, x.name, `create ${what} ${key(x)}`, []);
    else if (canon(prev) !== canon(x)) p.step(12, alter, x.name, `alter ${what} ${key(x)}`, []);
  }
  for (const [k, x] of old) {
    if (!after.some((y) => key(y) === k)) p.step(12, drop, x.name, `drop ${what} ${k}`, []);
  }
}
