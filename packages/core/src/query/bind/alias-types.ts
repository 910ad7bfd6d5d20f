/**
 * bind/alias-types: the type of each schema alias and computed global, as the schema catalogue
 * lists it (Gel makes a type of every alias: `alias best := 'Dragon'` is a scalar type
 * `default::best`, an object alias an object type, and a top-level shape on it a view type
 * `default::__best__Card`; a computed global likewise, its shape's view `default::__best`).
 *
 * Input: a SchemaIndex. Output: per alias its bound type and the object type of its top-level
 * shape (if any), memoised per index. An alias the binder refuses is left out of the catalogue
 * (a query that uses it gets the binder's error).
 */
import { QueryError } from '../../errors';
import type { TypeRef } from '../../schema/model';
import type { IrExpr } from '../ir';
import type { SchemaIndex } from '../schema-index';
import type { CatalogueAlias, CatalogueView } from '../schema-index/catalogue';
import { BindContext, rootScope } from './context';
import { bindExpr } from './expr';

const memo = new WeakMap<SchemaIndex, readonly CatalogueAlias[]>();

export function aliasTypes(index: SchemaIndex): readonly CatalogueAlias[] {
  let found = memo.get(index);
  if (!found) {
    // Gel lists a computed global as it lists an alias (a type of its own, `default::g`); its
    // shape's view type is `__g` (an alias's is `__a__Card`).
    const computedGlobals = index.schema.globals.flatMap((g) =>
      g.computed ? [{ name: g.name, expr: g.computed, top: false }] : [],
    );
    found = [
      ...index.schema.aliases.map((a) => ({ name: a.name, expr: a.expr, top: true })),
      ...computedGlobals,
    ].flatMap((alias) => {
      const module = alias.name.slice(0, alias.name.lastIndexOf('::'));
      try {
        const bound = bindExpr(new BindContext(index, 'query'), rootScope(module), alias.expr);
        if (bound.type.kind === 'free' || bound.type.kind === 'empty') return [];
        const short = alias.name.slice(alias.name.lastIndexOf('::') + 2);
        const view = viewOf(index, bound, `${module}::__${short}`, alias.top);
        return [{ name: alias.name, type: bound.type as TypeRef, view }];
      } catch (e) {
        if (e instanceof QueryError) return [];
        throw e;
      }
    });
    memo.set(index, found);
  }
  return found;
}

/**
 * The view a shape makes (Gel's `__<alias>__<Type>` for an alias's own shape, `__<alias>__<el>`
 * for an element's): its object type and the elements the shape adds or changes, or null.
 */
function viewOf(
  index: SchemaIndex,
  expr: IrExpr,
  prefix: string,
  top: boolean,
): CatalogueView | null {
  // The shape an alias's statements end in (`select (select Card { name } limit 1)` too).
  const shapeOf = (e: IrExpr, depth: number): IrExpr | undefined => {
    if (e.kind === 'Shape') return e;
    if (e.kind === 'BindingRef' && e.binding.transparent && depth <= 4)
      return shapeOf(e.binding.expr, depth + 1);
    if (e.kind !== 'Select' || depth > 4) return undefined;
    return shapeOf(e.result, depth + 1) ?? shapeOf(e.subject, depth + 1);
  };
  const shape = shapeOf(expr, 0);
  if (shape?.kind !== 'Shape' || shape.subject.type.kind !== 'object') return null;
  const base = shape.subject.type.name;
  const pointers = index.objectType(base)?.pointers;
  const short = base.slice(base.lastIndexOf('::') + 2);
  const elements = shape.elements.flatMap((e) => {
    const plain =
      e.expr.kind === 'PointerStep' && e.expr.pointer.name === e.name && pointers?.has(e.name);
    if (plain || e.onlyFor !== null || e.expr.type.kind === 'free' || e.expr.type.kind === 'empty')
      return [];
    const view = viewOf(index, e.expr, `${prefix}__${e.name}`, false);
    const type = e.expr.type as TypeRef;
    return [
      {
        name: e.name,
        kind: type.kind === 'object' ? ('link' as const) : ('property' as const),
        type: view ? ({ kind: 'object', name: view.name } as const) : type,
        many: e.expr.card.max === 'many',
        required: e.expr.card.min === 1,
        view,
      },
    ];
  });
  return { name: top ? `${prefix}__${short}` : prefix, base, elements };
}
