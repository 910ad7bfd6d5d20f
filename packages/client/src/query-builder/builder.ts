/**
 * query-builder/builder: `createBuilder`, the runtime behind a generated module's `e`. Each
 * query is a node printing EdgeQL (./render), its plain values as variables; `run` sends the text
 * and the variables through a client, by the query's cardinality (`query`, `querySingle`,
 * `queryRequiredSingle`).
 */
import type { Client } from '../client';
import {
  cardOf,
  castType,
  maxCard,
  NODE,
  nodeOf,
  operand,
  quoteName,
  quoteType,
  type Node,
  type RenderContext,
  type Scope,
  VARIABLE_PREFIX,
  variable,
  variablesOf,
} from './render';
import type { Card, PointerSpec, SchemaTypes } from './types';

/** How a std function's result cardinality follows from its arguments. */
export type FunctionCard = 'one' | 'atMostOne' | 'many' | 'element' | 'optional';

/** What a generated module hands `createBuilder`. */
export interface BuilderSchema {
  readonly types: SchemaTypes;
  /** Named scalar types (`std::str`, `default::Mood`): parameter types `e.str`, `e.Mood`. */
  readonly scalars: readonly string[];
  /** The std functions `e` offers, by name, with how their result's cardinality is found. */
  readonly functions: Readonly<Record<string, FunctionCard>>;
}

const MODIFIERS = new Set(['filter', 'filter_single', 'order_by', 'limit', 'offset']);
const COMPARISONS = new Set(['=', '!=', '?=', '?!=', '<', '<=', '>', '>=', 'like', 'ilike']);

const wrap = (node: Node): object => ({ [NODE]: node });

function pointerCard(p: PointerSpec): Card {
  if (p.card === 'many') return 'many';
  return p.required ? 'one' : 'atMostOne';
}

function pointersOf(types: SchemaTypes, target: string): Readonly<Record<string, PointerSpec>> {
  const names = target.split(' | ');
  const first = types[names[0] as string] ?? {};
  // A union's pointers: those every member has.
  return Object.fromEntries(
    Object.entries(first).filter(([name]) => names.every((n) => types[n]?.[name] !== undefined)),
  );
}

/** A path object: its node, and a getter per pointer giving the longer path. */
function pathObject(
  types: SchemaTypes,
  scope: Scope,
  target: string,
  steps: readonly string[],
  card: Card,
): object {
  const node: Node = {
    card,
    type: steps.length === 0 ? target : null,
    render(ctx) {
      if (ctx.scopes[ctx.scopes.length - 1] !== scope)
        throw new Error(
          `a path from ${scope.typeName} is used outside its own select, update or delete (only the innermost object's paths can be used there)`,
        );
      return steps.length === 0 ? '.id' : steps.map((s) => `.${quoteName(s)}`).join('');
    },
  };
  const path: Record<string | symbol, unknown> = { [NODE]: node };
  for (const [name, p] of Object.entries(pointersOf(types, target))) {
    Object.defineProperty(path, name, {
      enumerable: true,
      get: () => {
        const next = [...steps, name];
        const nextCard = maxCard(card, pointerCard(p));
        if (p.kind === 'link') return pathObject(types, scope, p.target, next, nextCard);
        return wrap({
          card: nextCard,
          type: p.target,
          render: (ctx) => {
            node.render(ctx);
            return next.map((s) => `.${quoteName(s)}`).join('');
          },
        });
      },
    });
  }
  return path;
}

interface TypeSetNode extends Node {
  readonly typeName: string;
}

function typeSetOf(value: unknown, what: string): TypeSetNode {
  const node = nodeOf(value) as TypeSetNode | null;
  if (!node || typeof node.typeName !== 'string')
    throw new TypeError(`${what} takes an object type (e.User), not ${String(value)}`);
  return node;
}

type ShapeObject = Record<string, unknown>;

function filterText(
  types: SchemaTypes,
  typeName: string,
  shape: ShapeObject,
  ctx: RenderContext,
): string {
  const parts: string[] = [];
  if (shape.filter !== undefined) parts.push(operand(shape.filter, ctx, 'std::bool'));
  const single = shape.filter_single as ShapeObject | undefined;
  if (single !== undefined) {
    const pointers = types[typeName] ?? {};
    for (const [name, value] of Object.entries(single)) {
      if (value === undefined) continue;
      const p = pointers[name];
      if (!p?.exclusive) throw new Error(`filter_single: ${name} is not an exclusive property`);
      parts.push(`.${quoteName(name)} = ${operand(value, ctx, p.target)}`);
    }
    if (parts.length === (shape.filter !== undefined ? 1 : 0))
      throw new Error('filter_single names no property');
  }
  return parts.length === 0 ? '' : ` filter ${parts.join(' and ')}`;
}

function pagingText(shape: ShapeObject, ctx: RenderContext): string {
  let text = '';
  if (shape.order_by !== undefined) {
    const keys = (Array.isArray(shape.order_by) ? shape.order_by : [shape.order_by]) as unknown[];
    text += ` order by ${keys
      .map((key) => {
        if (nodeOf(key)) return operand(key, ctx, null);
        const k = key as { expression: unknown; direction?: string; empty?: string };
        return [
          operand(k.expression, ctx, null),
          k.direction,
          k.empty === undefined ? undefined : `empty ${k.empty}`,
        ]
          .filter((part) => part !== undefined)
          .join(' ');
      })
      .join(' then ')}`;
  }
  if (shape.offset !== undefined) text += ` offset ${operand(shape.offset, ctx, 'std::int64')}`;
  if (shape.limit !== undefined) text += ` limit ${operand(shape.limit, ctx, 'std::int64')}`;
  return text;
}

/** `{ name, author: { name } }`: the shape's fields (empty when it selects none). */
function shapeText(
  types: SchemaTypes,
  typeName: string,
  shape: ShapeObject,
  ctx: RenderContext,
): string {
  const pointers = pointersOf(types, typeName);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(shape)) {
    if (MODIFIERS.has(key) || value === false || value === undefined) continue;
    const p = pointers[key];
    if (nodeOf(value)) {
      fields.push(`${quoteName(key)} := ${operand(value, ctx, null)}`);
    } else if (!p) {
      throw new Error(`${typeName} has no pointer ${key}`);
    } else if (value === true) {
      fields.push(quoteName(key));
    } else if (p.kind === 'link') {
      const scope: Scope = { typeName: p.target };
      const sub =
        typeof value === 'function'
          ? (value(pathObject(types, scope, p.target, [], 'one')) as ShapeObject)
          : (value as ShapeObject);
      const inner = { scopes: [...ctx.scopes, scope], vars: ctx.vars };
      const body = shapeText(types, p.target, sub, inner);
      fields.push(
        `${quoteName(key)}: ${body || '{ id }'}${filterText(types, p.target, sub, inner)}${pagingText(sub, inner)}`,
      );
    } else {
      throw new Error(`${typeName}.${key} is a property: select it with true`);
    }
  }
  return fields.length === 0 ? '' : `{ ${fields.join(', ')} }`;
}

/**
 * A pointer's new value. A multi property given an array: one array variable unpacked
 * (`array_unpack(<array<std::str>>$__v0)`, the same text for any length), or a set of variables
 * when its type is an array (arrays of arrays are not EdgeQL). An optional single property:
 * `<optional type>`, so that null and a value give the same text.
 */
function valueText(p: PointerSpec, value: unknown, ctx: RenderContext): string {
  const node = nodeOf(value);
  // `detached`: a query of the type being inserted or updated means other objects of it.
  if (node) return `(${node.render({ ...ctx, detached: true })})`;
  if (p.kind === 'link') {
    if (value === null) return '{}';
    throw new TypeError('a link takes a query (e.select(...)), not a value');
  }
  if (p.card === 'many') {
    if (value === null) return `<${castType(p.target)}>{}`;
    if (!Array.isArray(value)) return variable(value, p.target, ctx);
    if (!p.target.startsWith('array<'))
      return `array_unpack(${variable(value, `array<${p.target}>`, ctx)})`;
    return value.length === 0
      ? `<${castType(p.target)}>{}`
      : `{${value.map((v) => variable(v, p.target, ctx)).join(', ')}}`;
  }
  return variable(value, p.target, ctx, !p.required);
}

interface QueryParts {
  readonly card: Card;
  readonly text: (ctx: RenderContext) => string;
}

/** A query's text and its variables (the plain values in it), as `toQuery()` gives them. */
function render(node: Node): { query: string; variables: Record<string, unknown> } {
  const vars: unknown[] = [];
  const query = node.render({ scopes: [], vars });
  return { query, variables: variablesOf(vars) };
}

function query(parts: QueryParts): object {
  const node: Node = { card: parts.card, type: null, render: (ctx) => parts.text(ctx) };
  const toQuery = () => render(node);
  return {
    [NODE]: node,
    toQuery,
    toEdgeQL: () => toQuery().query,
    run: (client: Client) => {
      const { query, variables } = toQuery();
      return runQuery(client, query, parts.card, variables);
    },
  };
}

function runQuery(client: Client, text: string, card: Card, args: Record<string, unknown>) {
  if (card === 'one') return client.queryRequiredSingle(text, args);
  if (card === 'atMostOne') return client.querySingle(text, args);
  return client.query(text, args);
}

function subjectOf(types: SchemaTypes, set: unknown, what: string) {
  const typeName = typeSetOf(set, what).typeName;
  const scope: Scope = { typeName };
  return { typeName, scope, path: pathObject(types, scope, typeName, [], 'one') };
}

/** The runtime of `e`: a generated module types it for its schema. */
export function createBuilder(schema: BuilderSchema): Record<string, unknown> {
  const { types } = schema;

  function select(set: unknown, shapeFn?: (path: object) => ShapeObject) {
    const setNode = nodeOf(set) as TypeSetNode | null;
    if (!setNode) throw new TypeError('select takes an object type or an expression');
    if (typeof setNode.typeName !== 'string' || shapeFn === undefined)
      return query({
        card: setNode.card,
        text: (ctx) => `select ${setNode.render(ctx)}`,
      });
    const { typeName, scope, path } = subjectOf(types, set, 'select');
    const shape = shapeFn(path);
    return query({
      card: shape.filter_single !== undefined ? 'atMostOne' : 'many',
      text: (ctx) => {
        const inner = { scopes: [...ctx.scopes, scope], vars: ctx.vars };
        const body = shapeText(types, typeName, shape, inner);
        return `select ${ctx.detached ? 'detached ' : ''}${quoteType(typeName)}${body ? ` ${body}` : ''}${filterText(types, typeName, shape, inner)}${pagingText(shape, inner)}`;
      },
    });
  }

  function insert(set: unknown, values: ShapeObject) {
    const { typeName } = typeSetOf(set, 'insert');
    const pointers = types[typeName] ?? {};
    return query({
      card: 'one',
      text: (ctx) => {
        const fields = Object.entries(values)
          .filter(([, v]) => v !== undefined)
          .map(([name, value]) => {
            const p = pointers[name];
            if (!p || p.computed) throw new Error(`${typeName} has no stored pointer ${name}`);
            return `${quoteName(name)} := ${valueText(p, value, ctx)}`;
          });
        return `insert ${quoteType(typeName)} { ${fields.join(', ')} }`;
      },
    });
  }

  function update(set: unknown, fn: (path: object) => ShapeObject) {
    const { typeName, scope, path } = subjectOf(types, set, 'update');
    const shape = fn(path);
    const pointers = types[typeName] ?? {};
    return query({
      card: shape.filter_single !== undefined ? 'atMostOne' : 'many',
      text: (ctx) => {
        const inner = { scopes: [...ctx.scopes, scope], vars: ctx.vars };
        // The filter first: variables are numbered in the order the text shows them.
        const filter = filterText(types, typeName, shape, inner);
        const fields = Object.entries((shape.set ?? {}) as ShapeObject)
          .filter(([, v]) => v !== undefined)
          .map(([name, value]) => {
            const p = pointers[name];
            if (!p || p.computed) throw new Error(`${typeName} has no stored pointer ${name}`);
            const change = value as Record<string, unknown> | null;
            if (p.card === 'many' && change !== null && typeof change === 'object') {
              if ('+=' in change)
                return `${quoteName(name)} += ${valueText(p, change['+='], inner)}`;
              if ('-=' in change)
                return `${quoteName(name)} -= ${valueText(p, change['-='], inner)}`;
            }
            return `${quoteName(name)} := ${valueText(p, value, inner)}`;
          });
        if (fields.length === 0) throw new Error('update sets nothing');
        return `update ${quoteType(typeName)}${filter} set { ${fields.join(', ')} }`;
      },
    });
  }

  function remove(set: unknown, fn?: (path: object) => ShapeObject) {
    const { typeName, scope, path } = subjectOf(types, set, 'delete');
    const shape = fn ? fn(path) : {};
    return query({
      card: shape.filter_single !== undefined ? 'atMostOne' : 'many',
      text: (ctx) =>
        `delete ${quoteType(typeName)}${filterText(types, typeName, shape, { scopes: [...ctx.scopes, scope], vars: ctx.vars })}`,
    });
  }

  function params(
    declared: Record<string, { name: string; optional: boolean }>,
    fn: (exprs: Record<string, object>) => unknown,
  ) {
    const exprs: Record<string, object> = {};
    for (const [name, type] of Object.entries(declared)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        throw new Error(`a parameter's name must be an identifier: ${name}`);
      if (name.startsWith(VARIABLE_PREFIX))
        throw new Error(
          `a parameter's name may not start with ${VARIABLE_PREFIX} (the builder's own variables): ${name}`,
        );
      exprs[name] = wrap({
        card: type.optional ? 'atMostOne' : 'one',
        type: type.name,
        render: () => `<${type.optional ? 'optional ' : ''}${castType(type.name)}>$${name}`,
      });
    }
    const inner = nodeOf(fn(exprs));
    if (!inner) throw new TypeError('e.params: the function must return a query');
    const toQuery = (args: Record<string, unknown> = {}) => {
      const { query, variables } = render(inner);
      const values: Record<string, unknown> = {};
      for (const [name, type] of Object.entries(declared))
        values[name] = args[name] ?? (type.optional ? null : args[name]);
      return { query, variables: { ...values, ...variables } };
    };
    return {
      toQuery,
      toEdgeQL: () => render(inner).query,
      run: (client: Client, args: Record<string, unknown> = {}) => {
        const { query, variables } = toQuery(args);
        return runQuery(client, query, inner.card, variables);
      },
    };
  }

  function op(...args: unknown[]) {
    if (args.length === 2) {
      const [name, value] = args as [string, unknown];
      return wrap({
        card: cardOf(value),
        type: null,
        render: (ctx) => `(${name} ${operand(value, ctx, null)})`,
      });
    }
    const [left, name, right] = args as [unknown, string, unknown];
    const compared = COMPARISONS.has(name);
    return wrap({
      card: name.startsWith('?') ? 'one' : maxCard(cardOf(left), cardOf(right)),
      type: null,
      render: (ctx) => {
        const leftType = compared ? (nodeOf(right)?.type ?? null) : null;
        const rightType = compared ? (nodeOf(left)?.type ?? null) : null;
        return `(${operand(left, ctx, leftType)} ${name} ${operand(right, ctx, rightType)})`;
      },
    });
  }

  function call(name: string, rule: FunctionCard) {
    return (...args: unknown[]) =>
      wrap({
        card:
          rule === 'element'
            ? maxCard(...args.map(cardOf))
            : rule === 'optional'
              ? maxCard('atMostOne', ...args.map(cardOf))
              : rule,
        type: null,
        render: (ctx) => `${quoteName(name)}(${args.map((a) => operand(a, ctx, null)).join(', ')})`,
      });
  }

  const e: Record<string, unknown> = {
    select,
    insert,
    update,
    delete: remove,
    params,
    op,
    optional: (type: { name: string }) => ({ name: type.name, optional: true }),
  };
  for (const [name, rule] of Object.entries(schema.functions)) e[name] = call(name, rule);
  const place = (qualified: string, value: unknown) => {
    const at = qualified.lastIndexOf('::');
    const module = qualified.slice(0, at);
    const local = qualified.slice(at + 2);
    if (e[module] === undefined) e[module] = {};
    const namespace = e[module] as Record<string, unknown>;
    namespace[local] = value;
    if ((module === 'default' || module === 'std') && !(local in e)) e[local] = value;
  };
  for (const name of schema.scalars) place(name, { name, optional: false });
  for (const name of Object.keys(types).sort())
    place(name, {
      [NODE]: {
        card: 'many',
        type: name,
        typeName: name,
        render: (ctx: RenderContext) => `${ctx.detached ? 'detached ' : ''}${quoteType(name)}`,
      },
    });
  return e;
}
