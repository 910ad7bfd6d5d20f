/**
 * node-base: what every syntax-tree node has — its `kind` (the interface name) and the `span` of
 * source it was parsed from. The node types are in ./expr-ast (EdgeQL) and ./sdl-ast (SDL); ./ast
 * is the one entry that joins them.
 */
import type { Position } from './tokens';

export type { Position } from './tokens';

export interface Span {
  readonly start: Position;
  readonly end: Position;
}

export interface NodeBase<K extends string> {
  readonly kind: K;
  readonly span: Span;
}
