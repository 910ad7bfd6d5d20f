/**
 * query/ir: the typed intermediate form of an EdgeQL query, between the binder (query/bind) and
 * the planner (query/plan). The node types (./types), their cardinality bounds (./card), the
 * mutation analyses (./mutation).
 */
export * from './card';
export * from './conflict-groups';
export * from './mutation';
export * from './paths';
export * from './policies';
export * from './print';
export * from './shared-paths';
export * from './type-env';
export * from './types';
export * from './walk';
