/**
 * query/ir: the typed intermediate form of an EdgeQL query, between the binder (query/bind) and
 * the planner (query/plan), and what both read of it: the node types (./types), cardinality
 * bounds (./card), the one walker (./walk), path ids (./paths), the paths optional arguments
 * share (./shared-paths), mutation analyses (./mutation), the printer (./print), and the shared
 * vocabulary the binder hands the planner (./policies, ./conflict-groups, ./type-env).
 * Nothing here imports query/bind or query/plan.
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
