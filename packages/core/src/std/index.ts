/**
 * std: the one table of EdgeQL's standard library — scalar types, casts, operators and
 * functions with their SQL forms — and the overload resolver over it. The query compiler,
 * schema inference (schema/build) and DDL expressions (storage/) all resolve through here.
 *
 * Input: EdgeQL names and TypeRefs. Output: resolved calls that build sql/ast expressions.
 * Invariant: adding a std function or operator is adding a row to std/functions or std/operators.
 */
export type {
  Card,
  CallKind,
  Overload,
  Param,
  PolyName,
  SigType,
  SqlArgs,
  SqlForm,
  TypeEnv,
  TypeMod,
  Volatility,
} from './model';
export {
  STD_ONLY,
  STD_SCALARS_INFO,
  decodeParam,
  isStdScalarName,
  jsonOf,
  jsonTextOf,
  pgTypeFor,
  scalarInfo,
  storedJson,
  type ParamKind,
  type ScalarInfo,
} from './scalars';
export { EXACT_TEXT, paramValueProblem } from './params';
export { commonType, implicitDistance, implicitJoin, resolveCast, type Cast } from './casts';
export {
  defaultCard,
  isStdFunction,
  isStdSubmodule,
  printSignature,
  resolveFunction,
  resolveOperator,
  stdFunctionNames,
  stdFunctionOverloads,
  stdOperatorNames,
  stdOperatorOverloads,
  type CallArg,
  type ResolvedCall,
  type ResolveOptions,
} from './resolve';
export { STD_BOOTSTRAP_SQL } from './bootstrap';
