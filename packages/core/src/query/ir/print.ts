/**
 * query/ir/print: a deterministic, readable text form of bound IR, one line per node, for tests
 * (bind/__cases__) and for reading what the binder made of a query.
 *
 * Each line is `label: Kind details :: type [card] #path`: the node's kind and what it carries
 * besides its sub-expressions, its type, its cardinality (`[1]` one, `[0..1]` at most one,
 * `[0..*]` many, `[1..*]` at least one, `[0]` always empty) and, for a node with a path id, the
 * id. Path ids and binding ids are renumbered in order of first appearance (`#1`, `b1`), so the
 * text does not depend on the binder's counters but still shows which occurrences are the same
 * element. The sub-expressions follow, indented, labelled by their role, in the order
 * `children` (./walk) lists them; a node met again (the same object, as a shape's subject is
 * its select's) is one line marked `(repeated)`. A binding's expression is printed under its first reference
 * (labelled `binding`), a `for` binding's under the `for` (its iterator).
 */
import { printTypeRef } from '../../model/schema';
import type { Card } from './card';
import { ownPathId } from './paths';
import type { Binding, IrExpr, IrQuery, IrType, MutationElement } from './types';
import { children, dispatch, type IrKindTable } from './walk';

/** The EdgeQL spelling of an IR type (for messages and CompiledQuery.resultType). */
export function printIrType(type: IrType): string {
  switch (type.kind) {
    case 'free':
      return `std::FreeObject`;
    case 'empty':
      return 'anytype';
    default:
      return printTypeRef(type);
  }
}

/** `[1]`, `[0..1]`, `[0..*]`, `[1..*]`, `[0]`. */
export function printCard(card: Card): string {
  if (card.max === 0) return '[0]';
  const max = card.max === 'many' ? '*' : '1';
  return card.min === 1 && max === '1' ? '[1]' : `[${card.min}..${max}]`;
}

/** What a node prints on its own line, and its sub-expressions with their labels. */
interface NodeText {
  readonly details: string;
  readonly kids: readonly (readonly [string, IrExpr])[];
}

type Kid = readonly [string, IrExpr];

const ELEMENT_OPS = { ':=': 'set', '+=': 'add', '-=': 'remove' } as const;

const opt = (label: string, e: IrExpr | null | undefined): Kid[] => (e ? [[label, e]] : []);
const flags = (...names: (string | false | undefined | null)[]): string =>
  names.filter((n): n is string => typeof n === 'string' && n !== '').join(' ');
const quote = (s: string): string => JSON.stringify(s);

function printValue(value: string | Uint8Array): string {
  if (typeof value === 'string') return quote(value);
  return `b'${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}'`;
}

function freeType(type: IrType): string {
  if (type.kind !== 'free') return printIrType(type);
  const elements = type.elements.map((e) => `${e.name}: ${freeType(e.type)} ${printCard(e.card)}`);
  return `{${elements.join(', ')}}`;
}

class Printer {
  private readonly paths = new Map<string, number>();
  private readonly bindings = new Map<Binding, number>();
  private readonly printed = new Set<Binding>();
  /** Nodes with sub-expressions printed so far: the same node again prints as `(repeated)`. */
  private readonly seen = new Set<IrExpr>();
  readonly lines: string[] = [];

  path(id: string): string {
    let n = this.paths.get(id);
    if (n === undefined) {
      n = this.paths.size + 1;
      this.paths.set(id, n);
    }
    return `#${n}`;
  }

  binding(b: Binding): string {
    let n = this.bindings.get(b);
    if (n === undefined) {
      n = this.bindings.size + 1;
      this.bindings.set(b, n);
    }
    // The compiler's own names carry a counter (`~each3`): left out, as the ids are renumbered.
    const name = b.name.startsWith('~') ? b.name.replace(/\d+$/, '') : b.name;
    return `${name}@b${n}`;
  }

  bindingFlags(b: Binding): string {
    return flags(
      b.iteration && 'iteration',
      b.transparent && 'transparent',
      b.optional && 'optional',
      b.parameter && 'parameter',
      b.withAlias && 'with',
    );
  }

  elements(list: readonly MutationElement[]): Kid[] {
    return list.flatMap((e) => [
      [`${ELEMENT_OPS[e.op]} .${e.pointer.name}`, e.value] as Kid,
      ...(e.parts ?? []).flatMap((part, i) =>
        part.props.flatMap((p, j) =>
          p === null
            ? []
            : [[`${e.pointer.name} part ${i} @${e.linkProperties[j]?.name}`, p] as Kid],
        ),
      ),
    ]);
  }

  mutationBase(n: Extract<IrExpr, { kind: 'Insert' | 'Update' | 'Delete' }>): Kid[] {
    return [
      ...(n.guards ?? []).map((g) => [`guard when ${g.when}`, g.expr] as Kid),
      ...(n.within ?? []).map((r) => ['within', r] as Kid),
    ];
  }

  node(label: string, expr: IrExpr, depth: number): void {
    const text = dispatch(this.table, expr);
    const own = ownPathId(expr);
    const kids = children(expr);
    if (kids.length !== text.kids.length || kids.some((k, i) => text.kids[i]?.[1] !== k)) {
      throw new Error(`printIr: the printer's view of a ${expr.kind} differs from children()`);
    }
    const repeated = kids.length > 0 && this.seen.has(expr);
    this.seen.add(expr);
    const line = [
      `${'  '.repeat(depth)}${label}: ${expr.kind}`,
      text.details,
      `:: ${freeType(expr.type)} ${printCard(expr.card)}`,
      own === null ? '' : this.path(own),
      repeated ? '(repeated)' : '',
    ]
      .filter((s) => s !== '')
      .join(' ');
    this.lines.push(line);
    if (repeated) return;
    if (expr.kind === 'BindingRef' && !this.printed.has(expr.binding)) {
      this.printed.add(expr.binding);
      this.node('binding', expr.binding.expr, depth + 1);
    }
    for (const [l, k] of text.kids) this.node(l, k, depth + 1);
  }

  private readonly table: IrKindTable<NodeText> = {
    Literal: (n) => ({ details: printValue(n.value), kids: [] }),
    Param: (n) => ({
      details: flags(`$${n.name}`, `slot ${n.index}`, n.source !== 'variable' && n.source),
      kids: opt('fallback', n.fallback),
    }),
    TypeRoot: (n) => ({ details: n.objectType, kids: [] }),
    BindingRef: (n) => ({
      details: flags(this.binding(n.binding), this.bindingFlags(n.binding)),
      kids: [],
    }),
    PointerStep: (n) => ({
      details: flags(
        `.${n.pointer.name}`,
        `on ${n.sourceType}`,
        n.computed !== null && 'computed',
        n.optional && 'optional',
      ),
      kids: [['source', n.source]],
    }),
    Backlink: (n) => ({
      details: flags(
        `.<${n.links[0]?.pointer.name ?? '?'}`,
        `from ${n.links.map((l) => l.source).join(' | ')}`,
        n.narrowed && 'narrowed',
        n.typed && 'typed',
      ),
      kids: [['source', n.source]],
    }),
    LinkProperty: (n) => ({ details: `@${n.property.name}`, kids: [['link', n.link]] }),
    Intersection: (n) => ({ details: `[is ${n.objectType}]`, kids: [['source', n.source]] }),
    Shape: (n) => ({
      details: '',
      kids: [
        ['subject', n.subject],
        ...n.elements.map(
          (e) => [e.onlyFor === null ? e.name : `[is ${e.onlyFor}].${e.name}`, e.expr] as Kid,
        ),
      ],
    }),
    FreeObject: (n) => ({
      details: '',
      kids: n.elements.map((e) => [e.name, e.expr] as Kid),
    }),
    Call: (n) => ({
      details: flags(n.name, n.callKind !== 'element' && n.callKind),
      kids: n.args.map((a, i) => [`${n.modes[i] ?? 'element'} arg`, a] as Kid),
    }),
    Cast: (n) => ({ details: '', kids: [['expr', n.expr]] }),
    ObjectJson: (n) => ({ details: '', kids: [['expr', n.expr]] }),
    ObjectCast: (n) => ({ details: n.objectType, kids: [['expr', n.expr]] }),
    Distinct: (n) => ({ details: '', kids: [['expr', n.expr]] }),
    Exists: (n) => ({ details: n.negated ? 'not' : '', kids: [['expr', n.expr]] }),
    TypeCheck: (n) => ({
      details: `${n.negated ? 'is not' : 'is'} ${n.objectType}`,
      kids: [['expr', n.expr]],
    }),
    Assert: (n) => ({
      details: flags(n.check, quote(n.message)),
      kids: [['expr', n.expr], ...opt('message', n.messageExpr)],
    }),
    SetLiteral: (n) => ({ details: '', kids: n.elements.map((e) => ['element', e] as Kid) }),
    ArrayLiteral: (n) => ({ details: '', kids: n.elements.map((e) => ['element', e] as Kid) }),
    TupleLiteral: (n) => ({
      details: '',
      kids: n.elements.map((e, i) => [n.names?.[i] ?? String(i), e] as Kid),
    }),
    TupleElement: (n) => ({ details: `.${n.position}`, kids: [['tuple', n.tuple]] }),
    SetOp: (n) => ({
      details: n.op,
      kids: [
        ['left', n.left],
        ['right', n.right],
      ],
    }),
    Coalesce: (n) => ({
      details: '',
      kids: [
        ['left', n.left],
        ['right', n.right],
      ],
    }),
    IfElse: (n) => ({
      details: '',
      kids: [
        ['if', n.condition],
        ['then', n.then],
        ['else', n.else],
      ],
    }),
    Select: (n) => ({
      details: `subject ${this.path(n.subjectPathId)}`,
      kids: [
        ['subject', n.subject],
        ['result', n.result],
        ...opt('filter', n.filter),
        ...n.orderBy.map((k) => [`order by ${k.direction} empty ${k.empty}`, k.expr] as Kid),
        ...opt('offset', n.offset),
        ...opt('limit', n.limit),
      ],
    }),
    For: (n) => {
      // The iterator is the binding's expression: printed once, as the iterator.
      if (n.binding.expr === n.iterator) this.printed.add(n.binding);
      return {
        details: flags(this.binding(n.binding), n.optional && 'optional'),
        kids: [
          ['iterator', n.iterator],
          ['body', n.body],
        ],
      };
    },
    Group: (n) => ({
      details: flags(
        `subject ${this.path(n.subjectPathId)}`,
        `sets ${n.sets.map((s) => `(${s.map((i) => n.keys[i]?.name).join(', ')})`).join(' ')}`,
      ),
      kids: [
        ['subject', n.subject],
        ...n.keys.map((k) => [`key ${k.name}`, k.expr] as Kid),
        ['elements', n.elements],
      ],
    }),
    GroupKey: (n) => ({ details: `key ${n.index}`, kids: [['group', n.group]] }),
    GroupGrouping: (n) => ({ details: n.array ? 'array' : '', kids: [['group', n.group]] }),
    GroupElements: (n) => ({ details: '', kids: [['group', n.group]] }),
    Insert: (n) => ({
      details: flags(
        n.objectType,
        n.conflict &&
          `unless conflict on ${n.conflict.on === null ? '(every exclusive)' : n.conflict.on.map((p) => `.${p.name}`).join(', ')}`,
      ),
      kids: [
        ...this.mutationBase(n),
        ...opt('id', n.id),
        ...this.elements(n.elements),
        ...opt('conflict else', n.conflict?.else),
        ...(n.conflict?.keys ?? []).map((k) => [`conflict key of ${k.owner}`, k.fresh] as Kid),
      ],
    }),
    Update: (n) => ({
      details: `subject ${this.path(n.subjectPathId)}`,
      kids: [
        ...this.mutationBase(n),
        ['subject', n.subject],
        ...opt('filter', n.filter),
        ...this.elements(n.elements),
      ],
    }),
    Delete: (n) => ({
      details: `subject ${this.path(n.subjectPathId)}`,
      kids: [
        ...this.mutationBase(n),
        ['subject', n.subject],
        ...opt('filter', n.filter),
        ...n.orderBy.map((k) => [`order by ${k.direction} empty ${k.empty}`, k.expr] as Kid),
        ...opt('offset', n.offset),
        ...opt('limit', n.limit),
      ],
    }),
  };
}

/** `expr` as text, one line per node (see the module comment). */
export function printIr(expr: IrExpr): string {
  const p = new Printer();
  p.node('root', expr, 0);
  return p.lines.join('\n');
}

/** A bound query as text: its parameters, side effects and root. */
export function printIrQuery(query: IrQuery): string {
  const p = new Printer();
  for (const param of query.params) {
    p.lines.push(
      `param: ${param.source} $${param.name} :: ${printIrType(param.type)}${param.required ? '' : ' optional'}`,
    );
  }
  for (const effect of query.sideEffects) p.node('side effect', effect, 0);
  p.node(query.writes ? 'root (writes)' : 'root', query.root, 0);
  return p.lines.join('\n');
}
