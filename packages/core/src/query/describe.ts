/**
 * query/describe: the types of a query without running it (`POST /query` with `"describe":
 * true`, DECISIONS "Added 2026-11-29"): a descriptor of its variables, one of an element of its
 * result, and the result's cardinality. Descriptors name types as EdgeQL does (`std::int64`,
 * `default::Post`) and describe the JSON each element is answered as (docs/http.md, "Describe"):
 * a shape is an object of its elements, each with its cardinality (a multi one is a JSON array);
 * a link shown without a sub-shape is its target's id; an object without a shape is `{id}`; a
 * bare insert, update or delete answers the whole stored row.
 *
 * The JSON form is the planner's (plan/output); the shape predicates are shared with it
 * (`hasShape`, `isMulti`), and a test checks every result of the conformance corpus against
 * its descriptor, so the two cannot drift apart unnoticed.
 */
import type { TypeRef } from '../model/schema';
import type {
  ArgumentsDescriptor,
  DescribedCardinality,
  PointerDescriptor,
  TypeDescriptor,
} from './api';
import type { Card, IrExpr, IrQuery, IrType, ShapeElement } from './ir';
import { isMutation } from './ir';
import { hasShape, isMulti } from './plan/output';
import { groupNode } from './plan/paths';
import type { SchemaIndex } from './schema-index';

export function describedCardinality(card: Card): DescribedCardinality {
  if (card.max === 0) return 'empty';
  if (card.max === 1) return card.min === 1 ? 'one' : 'atMostOne';
  return card.min === 1 ? 'atLeastOne' : 'many';
}

const UUID: TypeDescriptor = { kind: 'scalar', name: 'std::uuid' };
const ID_ONLY: readonly PointerDescriptor[] = [{ name: 'id', cardinality: 'one', type: UUID }];

/** The descriptor of a schema type (a variable's, a stored pointer's, a scalar result's). */
export function describeTypeRef(index: SchemaIndex, type: TypeRef): TypeDescriptor {
  switch (type.kind) {
    case 'scalar': {
      const scalar = index.scalar(type.name);
      if (!scalar || type.name.startsWith('std::') || type.name.startsWith('cal::'))
        return { kind: 'scalar', name: type.name };
      if (scalar.enumValues) return { kind: 'enum', name: type.name, values: scalar.enumValues };
      return { kind: 'scalar', name: type.name, base: scalar.stdBase };
    }
    case 'object':
      return { kind: 'object', name: type.name, pointers: ID_ONLY };
    case 'union':
      return { kind: 'object', name: type.members.join(' | '), pointers: ID_ONLY };
    case 'array':
      return { kind: 'array', element: describeTypeRef(index, type.element) };
    case 'range':
    case 'multirange':
      return { kind: type.kind, element: describeTypeRef(index, type.element) };
    case 'tuple':
      return type.elements.every((e) => e.name !== null)
        ? {
            kind: 'namedtuple',
            elements: type.elements.map((e) => ({
              name: e.name as string,
              type: describeTypeRef(index, e.type),
            })),
          }
        : { kind: 'tuple', elements: type.elements.map((e) => describeTypeRef(index, e.type)) };
  }
}

function describeIrType(index: SchemaIndex, type: IrType): TypeDescriptor {
  if (type.kind === 'empty') return { kind: 'empty' };
  if (type.kind === 'free') {
    return {
      kind: 'object',
      name: 'std::FreeObject',
      pointers: type.elements.map((e) => ({
        name: e.name,
        cardinality: describedCardinality(e.card),
        type: describeIrType(index, e.type),
      })),
    };
  }
  return describeTypeRef(index, type);
}

/** The JSON form of one element of `expr` (plan/output `outputOf`). */
export function describeElement(index: SchemaIndex, expr: IrExpr): TypeDescriptor {
  switch (expr.kind) {
    // Forms that answer their operand's elements as the operand answers them.
    case 'BindingRef':
      if (expr.binding.transparent || expr.binding.withAlias !== true)
        return describeElement(index, expr.binding.expr);
      break;
    case 'Select':
      return describeElement(index, expr.result);
    case 'For':
      return describeElement(index, expr.body);
    case 'Assert':
    case 'Distinct':
      return describeElement(index, expr.expr);
    // Several operands: the shaped one's form (their type is the operands' common type).
    case 'SetOp':
    case 'Coalesce': {
      const shaped = [expr.left, expr.right].find(hasShape);
      if (shaped) return describeElement(index, shaped);
      break;
    }
    case 'IfElse': {
      const shaped = [expr.then, expr.else].find(hasShape);
      if (shaped) return describeElement(index, shaped);
      break;
    }
    case 'SetLiteral': {
      const shaped =
        expr.elements.find(hasShape) ?? (expr.elements.length === 1 ? expr.elements[0] : undefined);
      if (shaped) return describeElement(index, shaped);
      break;
    }
    case 'Shape':
      return {
        kind: 'object',
        name: expr.subject.type.kind === 'object' ? expr.subject.type.name : 'std::FreeObject',
        pointers: expr.elements.map((el) => describePointer(index, el)),
      };
    case 'FreeObject':
      return {
        kind: 'object',
        name: 'std::FreeObject',
        pointers: expr.elements.map((el) => describePointer(index, el)),
      };
    case 'Group': {
      const group = groupNode(expr);
      return {
        kind: 'object',
        name: 'std::FreeObject',
        pointers: [
          {
            name: 'key',
            cardinality: 'one',
            type: {
              kind: 'object',
              name: 'std::FreeObject',
              pointers: group.keys.map((k) => ({
                name: k.name,
                cardinality: 'atMostOne',
                type: describeElement(index, k.expr),
              })),
            },
          },
          {
            name: 'grouping',
            cardinality: 'many',
            type: { kind: 'scalar', name: 'std::str' },
          },
          {
            name: 'elements',
            cardinality: 'many',
            type: describeElement(index, group.elements),
          },
        ],
      };
    }
    case 'GroupElements':
      return describeElement(index, groupNode(expr.group).elements);
    case 'TupleLiteral': {
      const parts = expr.elements.map((e) => describeElement(index, e));
      return expr.names === null || expr.names.length === 0
        ? { kind: 'tuple', elements: parts }
        : {
            kind: 'namedtuple',
            elements: expr.names.map((name, i) => ({ name, type: parts[i] as TypeDescriptor })),
          };
    }
    case 'TupleElement':
      if (expr.tuple.kind === 'TupleLiteral') {
        const element = expr.tuple.elements[expr.position];
        if (element) return describeElement(index, element);
      }
      break;
    case 'ArrayLiteral': {
      const first = expr.elements[0];
      if (first && expr.elements.some((e) => e.type.kind === 'object' || hasShape(e)))
        return { kind: 'array', element: describeElement(index, first) };
      break;
    }
    case 'Call': {
      // Collections of objects keep the form the objects were put in with.
      const [arg] = expr.args;
      if (!arg) break;
      const carried = (): TypeDescriptor => describeElement(index, arg);
      const itemOf = (d: TypeDescriptor): TypeDescriptor | null =>
        d.kind === 'array' ? d.element : null;
      switch (expr.name) {
        case 'std::array_agg':
          return { kind: 'array', element: carried() };
        case 'std::array_unpack':
        case 'std::[]':
        case 'std::array_get': {
          const item = itemOf(carried());
          if (item) return item;
          break;
        }
        case 'std::enumerate':
          return { kind: 'tuple', elements: [{ kind: 'scalar', name: 'std::int64' }, carried()] };
        case 'std::assert_single':
        case 'std::assert_exists':
        case 'std::assert_distinct':
          return carried();
        default:
          break;
      }
      break;
    }
    default:
      break;
  }
  if (expr.type.kind === 'object' && isMutation(expr)) return storedRow(index, expr.type.name);
  return describeIrType(index, expr.type);
}

/** A shape element: its name, whether it is a JSON array, and the form of its values. */
function describePointer(index: SchemaIndex, el: ShapeElement): PointerDescriptor {
  const expr = el.expr;
  const many = isMulti(expr);
  const min = expr.card.min === 1 && el.onlyFor === null ? 1 : 0;
  const cardinality: DescribedCardinality =
    expr.card.max === 0 && !many
      ? 'empty'
      : many
        ? min === 1
          ? 'atLeastOne'
          : 'many'
        : min === 1
          ? 'one'
          : 'atMostOne';
  const type =
    expr.type.kind === 'object' && !hasShape(expr)
      ? ({ kind: 'id', name: expr.type.name } as const)
      : describeElement(index, expr);
  return { name: el.name, cardinality, type };
}

/** The whole stored row a bare insert, update or delete answers (plan/mutation `mutationOutput`). */
function storedRow(index: SchemaIndex, name: string): TypeDescriptor {
  const info = index.objectType(name);
  if (!info) return { kind: 'object', name, pointers: ID_ONLY };
  const pointers: PointerDescriptor[] = [...ID_ONLY];
  for (const p of info.pointers.values()) {
    if (p.model === null || p.computed || p.name === 'id') continue;
    const type: TypeDescriptor =
      p.kind === 'link' && (p.target.kind === 'object' || p.target.kind === 'union')
        ? {
            kind: 'id',
            name: p.target.kind === 'object' ? p.target.name : p.target.members.join(' | '),
          }
        : describeTypeRef(index, p.target);
    pointers.push({
      name: p.name,
      cardinality: p.many ? (p.required ? 'atLeastOne' : 'many') : p.required ? 'one' : 'atMostOne',
      type,
    });
  }
  return { kind: 'object', name, pointers };
}

/** A query's variables (its `$name` parameters; globals and the caller's values are not). */
export function describeInput(index: SchemaIndex, params: IrQuery['params']): ArgumentsDescriptor {
  return {
    kind: 'arguments',
    arguments: params
      .filter((p) => p.source === 'variable')
      .map((p) => ({ name: p.name, type: describeIrType(index, p.type), required: p.required })),
  };
}
