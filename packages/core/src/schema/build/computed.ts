/**
 * build/computed: finishes computed pointers and globals once their expression is bound (by the
 * query binder, against the index of the drafts: ./draft-index, ./bound).
 *
 * Input: a pointer or global draft whose expression has not been inferred. Output: the draft
 * with its `target`, `kind` (current syntax: an object result makes a link) and cardinality
 * (declared, else inferred). Drafts are finished on demand — a computed reading another computed
 * finishes that one first — and a cycle of computeds is an error.
 * Errors: a computed declared `single` whose expression may yield several values;
 * a result that is not a type a pointer can have; `InvalidDefinitionError` for a cycle.
 */
import { printTypeRef } from '../../model/schema';
import type * as ql from '../../syntax';
import {
  InvalidDefinitionError,
  InvalidLinkDefinitionError,
  InvalidPropertyDefinitionError,
} from '../../errors';
import type { TypeRef } from '../../model/schema';
import { annotationsOf } from './annotations';
import { fail, type BuildContext, type GlobalDraft, type PointerDraft } from './context';
import { bindComputed, bindSchemaExpression } from './bound';
import { draftIndex } from './draft-index';
import { resolveType } from './resolve';
import { containsObject } from './types';

const SINGLE_HINT =
  'declare it multi, or make the expression single: assert_single(...), limit 1, or a filter on an exclusive property';
const NESTED_HINT = 'store it as json, or as an array of tuples of arrays: array<tuple<array<T>>>';

function nestedArray(type: TypeRef): boolean {
  if (type.kind === 'array') return type.element.kind === 'array' || nestedArray(type.element);
  if (type.kind === 'tuple') return type.elements.some((e) => nestedArray(e.type));
  return false;
}

export function finishComputed(ctx: BuildContext, ptr: PointerDraft): void {
  if (ptr.inference === 'done' || ptr.computed === null) {
    ptr.inference = 'done';
    return;
  }
  const span = ptr.node?.span ?? ptr.span;
  if (ptr.inference === 'running') {
    fail(
      InvalidDefinitionError,
      `computed '${ptr.name}' of '${ptr.home}' is defined recursively`,
      span,
    );
  }
  ptr.inference = 'running';
  const inferred = bindComputed(draftIndex(ctx), ptr);
  const declaredKind = ptr.ownerLink !== null ? 'property' : (ptr.node?.pointerKind ?? null);
  const target = ptr.target ?? inferred.type;
  const Err = (kind: string | null) =>
    kind === 'link' ? InvalidLinkDefinitionError : InvalidPropertyDefinitionError;
  if (target === null) {
    fail(
      Err(declaredKind),
      `cannot determine the type of computed '${ptr.name}'`,
      ptr.computed.span,
      'cast the expression: <str>{}',
    );
  }
  // Arrays of arrays (item 9) are refused in stored types only: a computed pointer is a query,
  // as a computed global is, and may yield them.
  const isObject = target.kind === 'object' || target.kind === 'union';
  const kind = declaredKind ?? (isObject ? 'link' : 'property');
  if (kind === 'property' && containsObject(target)) {
    fail(
      InvalidPropertyDefinitionError,
      `the type inferred from the expression of the computed property '${ptr.name}' is '${printTypeRef(target)}': a property holds scalars`,
      ptr.computed.span,
      ptr.ownerLink ? undefined : `declare it as a link: link ${ptr.name} := ...`,
    );
  }
  if (kind === 'link' && !isObject) {
    fail(
      InvalidLinkDefinitionError,
      `the type inferred from the expression of the computed link '${ptr.name}' is '${printTypeRef(target)}', not an object type`,
      ptr.computed.span,
      `declare it as a property: property ${ptr.name} := ...`,
    );
  }
  if (ptr.declaredCardinality === 'one' && inferred.card.max === 'many') {
    fail(
      Err(kind),
      `computed '${ptr.name}' is declared single but may return more than one value`,
      span,
      SINGLE_HINT,
    );
  }
  ptr.kind = kind;
  ptr.target = target;
  ptr.cardinality = ptr.declaredCardinality ?? (inferred.card.max === 'many' ? 'many' : 'one');
  // Gel infers a computed's requiredness from its expression, as its cardinality.
  ptr.required = ptr.declaredRequired ?? inferred.card.min === 1;
  ptr.inference = 'done';
}

export function finishGlobal(ctx: BuildContext, g: GlobalDraft): void {
  if (g.inference === 'done') return;
  const node = g.node;
  if (g.inference === 'running') {
    fail(InvalidDefinitionError, `global '${g.name}' is defined recursively`, node.span);
  }
  g.inference = 'running';
  g.target = node.target
    ? resolveType(ctx, node.target, g.module, { nestedArray: InvalidDefinitionError })
    : null;
  g.computed =
    node.computed ?? node.members.find((m): m is ql.Using => m.kind === 'Using')?.expr ?? null;
  g.required = node.required ?? false;
  g.declaredCardinality =
    node.cardinality === null ? null : node.cardinality === 'multi' ? 'many' : 'one';
  g.cardinality = g.declaredCardinality ?? 'one';
  g.annotations = annotationsOf(ctx, node.members, g.module);
  for (const member of node.members) {
    if (member.kind !== 'SetField') continue;
    if (member.name !== 'default') {
      fail(
        InvalidDefinitionError,
        `unknown field '${member.name}' of global '${g.name}'`,
        member.span,
      );
    }
    g.default = member.value;
  }
  if (g.computed !== null) {
    const inferred = bindSchemaExpression(draftIndex(ctx), g.module, g.computed);
    g.target ??= inferred.type;
    if (g.target === null) {
      fail(
        InvalidDefinitionError,
        `cannot determine the type of global '${g.name}'`,
        g.computed.span,
        'cast the expression',
      );
    }
    if (g.declaredCardinality === 'one' && inferred.card.max === 'many') {
      fail(
        InvalidDefinitionError,
        `global '${g.name}' is declared single but may return more than one value`,
        node.span,
        SINGLE_HINT,
      );
    }
    g.cardinality = g.declaredCardinality ?? (inferred.card.max === 'many' ? 'many' : 'one');
  } else if (g.required && g.default === null) {
    fail(
      InvalidDefinitionError,
      `required global '${g.name}' must have a default`,
      node.span,
      'add { default := ... }',
    );
  }
  // Item 9 is about stored types: a computed global is a query, where arrays of arrays are fine.
  if (g.computed === null && g.target && nestedArray(g.target)) {
    fail(
      InvalidDefinitionError,
      'nested arrays are not supported',
      node.target?.span ?? node.span,
      NESTED_HINT,
    );
  }
  g.inference = 'done';
}
