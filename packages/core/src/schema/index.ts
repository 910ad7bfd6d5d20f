/**
 * schema: SDL text → Schema model (build/), the storage layout and DDL of a model (storage/),
 * the plan between two models (diff/), and the runner that applies a plan (migrate.ts).
 */
export * from './model';
export * from './plan';
