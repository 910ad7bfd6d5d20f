// The EdgeQL svc's REST planner emits for the two requests bench/rest measures, in the forms the
// planner fixes (get by id: `select T { <shape> } filter .id = <uuid>$id`, atMostOne; list:
// `select T { <shape> } order by .id offset <int64>$offset limit <int64>$limit`), the shape read
// from @svc/rest's model (the default shape: properties by name, links as ids, expanded links
// inlined). The bare handler sends the SQL svc's compiler makes of it.
//
// It stands in for @svc/rest's `planRequest(request, model, schema)` (same arguments, the same
// `{query, variables, cardinality}`) while @svc/rest does not export it: run.mjs calls
// `planRequest` itself as soon as it does (its header says which ran); this file can go then.

/** @returns {{query: string, variables: Record<string, unknown>, cardinality: 'many' | 'atMostOne'}} */
export function planRest(request, model) {
  const type = model.byRoute.get(request.type);
  if (!type) throw new Error(`bench/rest: no REST type ${request.type}`);
  const select = `select ${type.name} ${shapeText(type.shape)}`;
  switch (request.kind) {
    case 'get':
      return {
        query: `${select} filter .id = <uuid>$id`,
        variables: { id: request.id },
        cardinality: 'atMostOne',
      };
    case 'list':
      if (request.filters.length > 0 || request.order.length > 0)
        throw new Error('bench/rest: the stand-in planner knows no filter or order_by');
      return {
        query: `${select} order by .id offset <int64>$offset limit <int64>$limit`,
        variables: { offset: request.page.offset, limit: request.page.limit },
        cardinality: 'many',
      };
    default:
      throw new Error(`bench/rest: the stand-in planner knows no ${request.kind} request`);
  }
}

function shapeText(shape) {
  const fields = shape.fields.map((f) => {
    if (f.kind === 'property') return f.name;
    if (f.expanded) return `${f.name}: ${shapeText(f.expanded)}`;
    return `${f.name} := .${f.name}.id`;
  });
  return `{ ${fields.join(', ')} }`;
}
