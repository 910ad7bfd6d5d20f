/**
 * query/ir/type-env: std's view of a schema's custom scalars and enums (the `TypeEnv` std's
 * overload resolution, casts and SQL take), one per schema index. Shared by the binder, the
 * planner, the engine's parameter encoding and DDL expressions.
 */
import type { TypeEnv } from '../../std/model';
import type { SchemaIndex } from '../schema-index';

const envs = new WeakMap<SchemaIndex, TypeEnv>();

/** std's view of the schema's custom scalars and enums. */
export function typeEnv(index: SchemaIndex): TypeEnv {
  let env = envs.get(index);
  if (!env) {
    env = {
      stdBase: (name) =>
        name.startsWith('std::') || name.startsWith('cal::')
          ? (name as never)
          : (index.scalar(name)?.stdBase ?? null),
      enumValues: (name) => index.scalar(name)?.enumValues ?? null,
    };
    envs.set(index, env);
  }
  return env;
}
