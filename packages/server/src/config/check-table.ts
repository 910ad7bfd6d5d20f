/**
 * Checks a table of settings against its field specs (@svc/auth's `AUTH_FIELDS`, whose `smtp`,
 * `webauthn`, ... hold their own): every key known (else "did you mean"), every value of its
 * type and within its bounds, the tables inside likewise; each problem pushed with where it is.
 */
import { closestName } from '@svc/core';
import type { AuthFieldSpec } from '@svc/auth';

export interface TableCheck {
  /** Where the table is: `['auth']`, `['auth', 'smtp']`; `[]` for `authConfig` itself. */
  readonly path: readonly string[];
  /** A spec's key as this source spells it: camelCase in code, snake_case in TOML. */
  readonly spell: (key: string) => string;
  /** A key's name in a message: `[auth.smtp] port`, `authConfig.smtp.port`. */
  readonly name: (path: readonly string[]) => string;
  /** The prefix naming where the key is written (`svc.toml:12: `), or ''. */
  readonly at: (path: readonly string[]) => string;
  readonly problems: string[];
  /** A file cannot hold functions: a `code` setting there is a problem. */
  readonly fromFile?: boolean;
}

/** `; did you mean 'port'?`, or '' when no candidate is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closestName(word, candidates);
  return near === undefined ? '' : `; did you mean '${near}'?`;
}

export function checkTable(
  value: Readonly<Record<string, unknown>>,
  specs: readonly AuthFieldSpec[],
  check: TableCheck,
): void {
  const spelled = specs.map((s) => check.spell(s.key));
  for (const [key, raw] of Object.entries(value)) {
    if (raw === undefined) continue;
    const path = [...check.path, key];
    const spec = specs.find((s) => check.spell(s.key) === key);
    if (!spec) {
      check.problems.push(
        `${check.at(path)}unknown key ${check.name(path)}${didYouMean(key, spelled)}`,
      );
      continue;
    }
    const v = typeof raw === 'bigint' ? Number(raw) : raw;
    const problem = fieldProblem(spec, v, check.fromFile ?? false);
    if (problem !== undefined) {
      check.problems.push(`${check.at(path)}${check.name(path)} ${problem}`);
      continue;
    }
    const fields = spec.fields;
    if (fields === undefined) continue;
    if (spec.type === 'table') checkTable(v as Record<string, unknown>, fields, { ...check, path });
    else if (spec.type === 'tables') {
      for (const [i, item] of (v as Record<string, unknown>[]).entries())
        checkTable(item, fields, { ...check, path: [...check.path, `${key}[${i}]`] });
    }
  }
}

/** Why a value does not fit its spec (`must be ..., got ...`), or undefined. */
function fieldProblem(spec: AuthFieldSpec, value: unknown, fromFile: boolean): string | undefined {
  const got = `, got ${describeValue(value)}`;
  if (value === false && spec.orFalse) return undefined;
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false${got}`;
    case 'integer': {
      const min = spec.min ?? Number.MIN_SAFE_INTEGER;
      const max = spec.max ?? Number.MAX_SAFE_INTEGER;
      return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
        ? undefined
        : `must be an integer from ${min} to ${max}${got}`;
    }
    case 'string':
      return typeof value === 'string' ? undefined : `must be a string${got}`;
    case 'secret':
      // Never echo a secret back in a message.
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'strings':
      return isStrings(value) ? undefined : `must be a list of strings${got}`;
    case 'pem':
      return isPem(value) || (Array.isArray(value) && value.every(isPem))
        ? undefined
        : `must be PEM text or a list of them${got}`;
    case 'table':
      return isPlainObject(value)
        ? undefined
        : `must be a table${spec.orFalse ? ' (or false)' : ''}${got}`;
    case 'tables':
      return Array.isArray(value) && value.every(isPlainObject)
        ? undefined
        : `must be a list of tables${got}`;
    case 'code':
      return fromFile ? 'can only be given in code (authConfig of createServer)' : undefined;
  }
}

const isStrings = (value: unknown) =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');
const isPem = (value: unknown) => typeof value === 'string' || Buffer.isBuffer(value);

/** A value in a message; a string says it is one, so that `"2525"` is not read as a number. */
export function describeValue(value: unknown): string {
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : JSON.stringify(value);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
