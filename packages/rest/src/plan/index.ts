/**
 * plan: ApiRequest + RestModel → one EdgeQL statement and its variables (PostgREST's plan and
 * query stages in one pure step). Every name comes from the REST model (so hidden fields are
 * unknown here, as everywhere), every value travels as a named variable, never as text.
 *
 * The forms (the bench and the OpenAPI document rely on them):
 *   get     select default::T { <shape> } filter .id = <uuid>$id                  (atMostOne)
 *   list    select default::T { <shape> } [filter <f> and ...] order by [<terms> then] .id
 *             [offset <int64>$offset] limit <int64>$limit   (`limit 100` at the default: pageText)
 *   insert  select (insert default::T { f := <type>$f, ... }) { <shape> }
 *   update  select (update default::T filter .id = <uuid>$id set { ... }) { <shape> }
 *   delete  delete default::T filter .id = <uuid>$id
 *   linked  select (select default::T filter .id = <uuid>$id).link { <target shape> }
 *             order by .id [offset <int64>$offset] limit <int64>$limit
 * A shape names properties and computeds, a link read as ids by its bare name (`author`: the
 * compiler reads a link without a sub-shape as its id, a multi link as an array of ids, `[]`
 * when empty; `author := .author.id` is refused as a redefinition of the link), and an expanded
 * link with the target's shape (`author: { ... }`). Every statement is compiled with
 * `singleLinks: 'object'`, so PostgreSQL answers a single expanded link as the object or null
 * (`/query` answers it as an array of one object) and no answer is reshaped in Node.
 *
 * Filters (several AND together; see docs/http.md): on a single scalar property, `=`, `__in`
 * (each element converted) and `__contains` (case-insensitive substring, on `str`, custom str
 * scalars and enums; `contains(str_lower(...))`, so `%`, `_` and `\` are data, not LIKE
 * patterns); on a single link, `=` and `__in` by the target's id (`?author=<uuid>`). Filters on
 * multi fields, links through `__contains`, `json` and collection-typed properties are 400.
 * `order_by` takes single scalar properties (computeds included) only.
 */
import { commonError, valueProblem, type Schema, type TypeRef } from '@svc/core';
import {
  DEFAULT_LIMIT,
  type ApiRequest,
  type Filter,
  type OrderTerm,
  type Page,
} from '../request/api-request';
import {
  filterOperators,
  linkedShape,
  orderable,
  scalarFacts,
  type RestField,
  type RestModel,
  type RestType,
  type ScalarFacts,
  type Shape,
} from '../model';
import { ident, typeName, typeText } from './names';
import { isUuid } from '../request/parse';
import { fromText } from './values';

/** What the handler does with the engine's answer. */
export type RestAnswer =
  /** 200, the array as it came (list, linked collection). */
  | 'list'
  /** 200, the one object; 404 when the array is empty (get, update). */
  | 'object'
  /** 201, the one object (insert). */
  | 'created'
  /** 204, no body, whether or not a row was deleted. */
  | 'deleted';

export interface RestStatement {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly cardinality: 'many' | 'atMostOne';
  /** A single expanded link is answered as the object or null (core's CompileOptions). */
  readonly singleLinks: 'object';
}

export interface RestQuery extends RestStatement {
  readonly answer: RestAnswer;
  /** The shape of the objects answered. */
  readonly shape: Shape | null;
  /**
   * A linked collection: the statement that tells whether the parent object exists (to the
   * caller), run only when the page is empty (404 when it does not).
   */
  readonly parent?: RestStatement;
  /** What the 404 of a missing object says. */
  readonly missing?: string;
}

/** The requests `planRequest` plans: every route but the OpenAPI document. */
export type DataRequest = Exclude<ApiRequest, { kind: 'openapi' }>;

/**
 * Plans one REST request. Throws 404 NOT_FOUND for a type (or a linked collection's link) the
 * model does not route, 400 VALIDATION_ERROR naming the field for unknown, hidden or unusable
 * fields and for values that do not convert.
 */
export function planRequest(request: DataRequest, model: RestModel, schema: Schema): RestQuery {
  const type = model.byRoute.get(request.type);
  if (!type) throw commonError('NOT_FOUND', `no type ${request.type} in the schema`);
  const t = typeName(type.name);
  const shape = shapeText(type.shape);
  const missing = `no ${type.route} with id ${'id' in request ? request.id : ''}`;
  switch (request.kind) {
    case 'get':
      return {
        query: `select ${t} ${shape} filter .id = <uuid>$id`,
        variables: { id: request.id },
        cardinality: 'atMostOne',
        singleLinks: 'object',
        answer: 'object',
        shape: type.shape,
        missing,
      };
    case 'list': {
      const variables: Record<string, unknown> = {};
      const where = request.filters.map((f, i) => filterText(type, f, `f${i}`, variables, schema));
      return {
        query:
          `select ${t} ${shape}` +
          (where.length > 0 ? ` filter ${where.join(' and ')}` : '') +
          ` order by ${orderText(type, request.order)}${pageText(request.page, variables)}`,
        variables,
        cardinality: 'many',
        singleLinks: 'object',
        answer: 'list',
        shape: type.shape,
      };
    }
    case 'insert': {
      const variables: Record<string, unknown> = {};
      const set = assignments(type, request.body, variables, new Set(), schema);
      return {
        query: `select (insert ${t}${set.length > 0 ? ` { ${set.join(', ')} }` : ''}) ${shape}`,
        variables,
        cardinality: 'atMostOne',
        singleLinks: 'object',
        answer: 'created',
        shape: type.shape,
      };
    }
    case 'update': {
      const variables: Record<string, unknown> = { id: request.id };
      const set = assignments(type, request.body, variables, new Set(['id']), schema);
      return {
        query: `select (update ${t} filter .id = <uuid>$id set { ${set.join(', ')} }) ${shape}`,
        variables,
        cardinality: 'atMostOne',
        singleLinks: 'object',
        answer: 'object',
        shape: type.shape,
        missing,
      };
    }
    case 'delete':
      return {
        query: `delete ${t} filter .id = <uuid>$id`,
        variables: { id: request.id },
        cardinality: 'many',
        singleLinks: 'object',
        answer: 'deleted',
        shape: null,
      };
    case 'linked':
      return linked(model, type, request.id, request.link, request.page, missing);
  }
}

/**
 * ` [offset <int64>$offset] limit <int64>$limit`, with the server's defaults written as constants:
 * no offset clause for offset 0, `limit 100` for the default page size. PostgreSQL cannot keep
 * one plan for a statement whose page size is a parameter (its generic plan must guess the
 * size, so it plans the statement again on every run); the first page at the default size, the
 * request most lists get, is then one statement it plans once per connection. Any other value a
 * client gives travels as a variable, like every value.
 */
function pageText(page: Page, variables: Record<string, unknown>): string {
  let text = '';
  if (page.offset !== 0) {
    variables.offset = page.offset;
    text += ' offset <int64>$offset';
  }
  if (page.limit === DEFAULT_LIMIT) return `${text} limit ${DEFAULT_LIMIT}`;
  variables.limit = page.limit;
  return `${text} limit <int64>$limit`;
}

/** `{ id, name, author: { ... } }`, once per shape (the model is cached per schema version). */
const shapeTexts = new WeakMap<Shape, string>();
export function shapeText(shape: Shape): string {
  let text = shapeTexts.get(shape);
  if (text === undefined) {
    const parts = shape.fields.map((f) =>
      f.expanded ? `${ident(f.name)}: ${shapeText(f.expanded)}` : ident(f.name),
    );
    text = `{ ${parts.join(', ')} }`;
    shapeTexts.set(shape, text);
  }
  return text;
}

function linked(
  model: RestModel,
  type: RestType,
  id: string,
  name: string,
  page: Page,
  missing: string,
): RestQuery {
  const link = type.fields.get(name);
  if (link?.kind !== 'link') {
    throw commonError('NOT_FOUND', `${type.route} has no link "${name}"`);
  }
  const shape = linkedShape(model, link);
  const t = typeName(type.name);
  const variables: Record<string, unknown> = { id };
  return {
    query: `select (select ${t} filter .id = <uuid>$id).${ident(link.name)} ${shapeText(shape)} order by .id${pageText(page, variables)}`,
    variables,
    cardinality: 'many',
    singleLinks: 'object',
    answer: 'list',
    shape,
    parent: {
      query: `select ${t} { id } filter .id = <uuid>$id`,
      variables: { id },
      cardinality: 'atMostOne',
      singleLinks: 'object',
    },
    missing,
  };
}

/** A field by the name a client gave, or the 400 naming it (hidden fields are not there). */
function fieldOf(type: RestType, name: string, param: string): RestField {
  const field = type.fields.get(name);
  if (!field) throw invalid(param, `${type.route} has no field "${name}"`);
  return field;
}

function invalid(param: string, message: string, type?: CompilerErrorClass) {
  return commonError('VALIDATION_ERROR', `"${param}": ${message}`, type ? { type } : undefined);
}

/**
 * The query compiler's class for a written value it would refuse (the spec: type and constraint
 * errors of a body surface as the compiler's error): `QueryArgumentError` for a value of the
 * wrong JSON kind (what the engine's binding says of such a variable), `InvalidValueError` for a
 * text its type does not take (a UUID, an enum's label), `MissingRequiredError` for a required
 * field set empty. The 400 still names the field (`invalid`), so `type` is the class alone.
 */
type CompilerErrorClass = 'QueryArgumentError' | 'InvalidValueError' | 'MissingRequiredError';

function paramName(f: Filter): string {
  return f.operator === 'eq' ? f.property : `${f.property}__${f.operator}`;
}

/** One filter's EdgeQL, its value(s) converted into `variables[name]`. */
function filterText(
  type: RestType,
  filter: Filter,
  name: string,
  variables: Record<string, unknown>,
  schema: Schema,
): string {
  const param = paramName(filter);
  const field = fieldOf(type, filter.property, param);
  if (!filterOperators(field, schema).includes(filter.operator)) {
    throw invalid(param, filterRefusal(field, filter.operator));
  }
  const path = `.${ident(field.name)}`;
  if (field.kind === 'link') {
    const ids = filter.values.map((v) => {
      if (!isUuid(v)) throw invalid(param, `${JSON.stringify(v)} is not a UUID`);
      return v;
    });
    if (filter.operator === 'eq') {
      variables[name] = ids[0];
      return `${path}.id = <uuid>$${name}`;
    }
    variables[name] = ids;
    return `${path}.id in array_unpack(<array<uuid>>$${name})`;
  }
  const scalar = field.type as Extract<TypeRef, { kind: 'scalar' }>;
  const facts = scalarFacts(schema, scalar.name) as ScalarFacts;
  const cast = typeText(field.type);
  if (filter.operator === 'contains') {
    variables[name] = filter.values[0] as string;
    const subject = scalar.name === 'std::str' ? path : `<str>${path}`;
    return `contains(str_lower(${subject}), str_lower(<str>$${name}))`;
  }
  const values = filter.values.map((v) => fromText(facts, v, param));
  if (filter.operator === 'eq') {
    variables[name] = values[0];
    return `${path} = <${cast}>$${name}`;
  }
  variables[name] = values;
  return `${path} in array_unpack(<array<${cast}>>$${name})`;
}

/** Why `field` does not take `operator` (the model's `filterOperators` said it does not). */
function filterRefusal(field: RestField, operator: Filter['operator']): string {
  if (field.many) return `"${field.name}" is multi; filters take single fields only`;
  if (field.kind === 'link') return `"${field.name}" is a link: filter it by id with = or __in`;
  if (field.type.kind !== 'scalar') {
    return `"${field.name}" is not of a scalar type; filters take scalar fields only`;
  }
  if (operator === 'contains') {
    return `__contains takes text fields; "${field.name}" is ${field.type.name}`;
  }
  return `"${field.name}" (${field.type.name}) cannot be filtered`;
}

/** `order by` terms, `.id` always last so pages are stable. */
function orderText(type: RestType, order: readonly OrderTerm[]): string {
  const terms = order.map((term) => {
    const field = fieldOf(type, term.property, 'order_by');
    if (!orderable(field)) {
      throw invalid('order_by', `"${field.name}" is not a single scalar field and cannot order`);
    }
    return `.${ident(field.name)}${term.direction === 'desc' ? ' desc' : ''}`;
  });
  if (!order.some((term) => term.property === 'id')) terms.push('.id');
  return terms.join(' then ');
}

/**
 * The `set` / insert shape of a body: `f := <type>$f` for each field, the value checked
 * against the field's type first. Variables are named after the fields where the name is a
 * plain identifier not yet taken (`$title`), else `$v<n>`.
 */
function assignments(
  type: RestType,
  body: Readonly<Record<string, unknown>>,
  variables: Record<string, unknown>,
  taken: Set<string>,
  schema: Schema,
): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const field = fieldOf(type, key, key);
    // `id` is not writable, but a body naming it is left to the compiler, whose error names it
    // (docs/http.md, write bodies).
    if (!type.writable.includes(field) && field.name !== 'id') {
      throw invalid(key, notWritable(field));
    }
    const target = ident(field.name);
    if (value === null) {
      if (field.required) {
        throw invalid(key, `"${key}" is required and cannot be null`, 'MissingRequiredError');
      }
      out.push(`${target} := {}`);
      continue;
    }
    const variable = variableName(field.name, taken);
    variables[variable] = value;
    out.push(`${target} := ${valueText(field, value, variable, key, schema)}`);
  }
  return out;
}

/** A non-string id is of the wrong kind; a string that is no UUID a value uuid does not take. */
function idProblemClass(ids: readonly unknown[]): CompilerErrorClass {
  return ids.every((v) => typeof v === 'string') ? 'InvalidValueError' : 'QueryArgumentError';
}

/**
 * An enum's label, checked as `<E>$v` checks it (InvalidValueError) but naming the field and
 * the labels it takes.
 */
function checkLabel(schema: Schema, type: TypeRef, value: unknown, key: string): void {
  if (type.kind !== 'scalar' || typeof value !== 'string') return;
  const labels = scalarFacts(schema, type.name)?.enumValues;
  if (!labels || labels.includes(value)) return;
  throw invalid(
    key,
    `${JSON.stringify(value)} is not a label of enum '${type.name}': one of ${labels.join(', ')}`,
    'InvalidValueError',
  );
}

function notWritable(field: RestField): string {
  if (field.computed) return `"${field.name}" is computed and cannot be written`;
  return `"${field.name}" cannot be written`;
}

function variableName(name: string, taken: Set<string>): string {
  let candidate = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && ident(name) === name ? name : 'v0';
  for (let i = 0; taken.has(candidate); i++) candidate = `v${i}`;
  taken.add(candidate);
  return candidate;
}

/** The EdgeQL of one written value, after checking it. */
function valueText(
  field: RestField,
  value: unknown,
  variable: string,
  key: string,
  schema: Schema,
): string {
  if (field.kind === 'link') {
    // The target's type, or the union of its types: an id of an object of any of them (a
    // missing id is a CardinalityViolationError, as for one type).
    const target = field.target === null ? typeText(field.type) : typeName(field.target);
    if (field.many) {
      if (!Array.isArray(value) || !value.every(isUuid)) {
        const items = Array.isArray(value) ? value : [null];
        throw invalid(key, 'expects an array of id strings (UUIDs)', idProblemClass(items));
      }
      return `<${target}>array_unpack(<array<uuid>>$${variable})`;
    }
    if (!isUuid(value))
      throw invalid(key, 'expects an id string (a UUID)', idProblemClass([value]));
    return `<${target}><uuid>$${variable}`;
  }
  if (field.many) {
    if (!Array.isArray(value)) {
      throw invalid(key, 'expects an array (the field is multi)', 'QueryArgumentError');
    }
    const problem = valueProblem(schema, { kind: 'array', element: field.type }, value);
    if (problem !== undefined) throw invalid(key, problem, 'QueryArgumentError');
    for (const item of value) checkLabel(schema, field.type, item, key);
    return `array_unpack(<${typeText({ kind: 'array', element: field.type } as TypeRef)}>$${variable})`;
  }
  const problem = valueProblem(schema, field.type, value);
  if (problem !== undefined) throw invalid(key, problem, 'QueryArgumentError');
  checkLabel(schema, field.type, value, key);
  return `<${typeText(field.type)}>$${variable}`;
}
