/**
 * plan/values: a query-string value (text) as the JSON value its property takes, checked.
 *
 * The JSON kind comes from @svc/core's `scalarValueKind` (the binder checks the same table);
 * what the kind cannot tell (a uuid, a datetime, a local date or time, an enum's labels) is
 * checked here by the std base, so a value that does not convert is a 400 naming the
 * parameter, before anything reaches the compiler.
 */
import { commonError, scalarValueKind, type ParamKind, type Schema } from '@svc/core';

/** What a scalar's values are, for converting text: the JSON kind, the std base, enum labels. */
export interface ScalarFacts {
  readonly kind: ParamKind;
  /** The std scalar the values are stored as (`std::str` for enums). */
  readonly std: string;
  readonly enumValues: readonly string[] | null;
}

export function scalarFacts(schema: Schema, name: string): ScalarFacts | null {
  const kind = scalarValueKind(schema, name);
  if (kind === null) return null;
  const custom = schema.scalarTypes.find((s) => s.name === name);
  return {
    kind,
    std: custom ? custom.stdBase : name,
    enumValues: custom ? custom.enumValues : null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?';
const ZONE = '(Z|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)';
/** ISO 8601 forms by std type: the datetime with its zone, local types without (spec Versioning 3). */
const FORMATS: Readonly<Record<string, { readonly pattern: RegExp; readonly name: string }>> = {
  'std::uuid': { pattern: UUID, name: 'a UUID' },
  'std::datetime': {
    pattern: new RegExp(`^${DATE}[Tt ]${TIME}${ZONE}$`),
    name: 'an ISO 8601 date and time with a zone (2024-05-01T12:00:00Z)',
  },
  'cal::local_datetime': {
    pattern: new RegExp(`^${DATE}[Tt ]${TIME}$`),
    name: 'an ISO 8601 local date and time (2024-05-01T12:00:00)',
  },
  'cal::local_date': { pattern: new RegExp(`^${DATE}$`), name: 'an ISO 8601 date (2024-05-01)' },
  'cal::local_time': { pattern: new RegExp(`^${TIME}$`), name: 'an ISO 8601 time (12:00:00)' },
};
const INTEGER = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** Whether `uuid` is a UUID's text. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * `text` as a JSON value of the scalar `facts` describes; a 400 VALIDATION_ERROR naming
 * `param` (the query parameter as written) when it does not convert.
 */
export function fromText(facts: ScalarFacts, text: string, param: string): unknown {
  const refuse = (what: string): never => {
    throw commonError('VALIDATION_ERROR', `"${param}": ${JSON.stringify(text)} is not ${what}`);
  };
  const kind = facts.kind;
  switch (kind.kind) {
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower !== 'true' && lower !== 'false') refuse('true or false');
      return lower === 'true';
    }
    case 'integer': {
      if (!INTEGER.test(text)) refuse('an integer');
      const n = Number(text);
      if (n < kind.min || n > kind.max) refuse(`an integer from ${kind.min} to ${kind.max}`);
      return n;
    }
    case 'number': {
      if (!DECIMAL.test(text)) refuse('a number');
      return Number(text);
    }
    case 'exact': {
      // Kept as text so every digit of a bigint or decimal survives (the binder accepts it).
      if (!(kind.integer ? INTEGER : DECIMAL).test(text))
        refuse(kind.integer ? 'an integer' : 'a number');
      return text.startsWith('+') ? text.slice(1) : text;
    }
    case 'any':
      return refuse('a value a filter can compare');
    case 'string': {
      if (facts.enumValues && !facts.enumValues.includes(text)) {
        refuse(`one of ${facts.enumValues.join(', ')}`);
      }
      const format = FORMATS[facts.std];
      if (format && !format.pattern.test(text)) refuse(format.name);
      return text;
    }
  }
}
