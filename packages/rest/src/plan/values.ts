/**
 * plan/values: a query-string value (text) as the JSON value its property takes, checked.
 *
 * The JSON kind comes from the model's `scalarFacts` (core's `scalarValueKind`, the table the
 * binder checks), exact numbers must have the binder's text forms (core's `EXACT_TEXT`);
 * what the kind cannot tell (a uuid, a datetime, a local date or time, an enum's labels) is
 * checked here by the std base, so a value that does not convert is a 400 naming the
 * parameter, before anything reaches the compiler.
 */
import { commonError, EXACT_TEXT } from '@svc/core';
import type { ScalarFacts } from '../model';
import { isUuid } from '../request/parse';

const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?';
const ZONE = '(Z|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)';
/** ISO 8601 forms by std type: the datetime with its zone, local types without. */
const FORMATS: Readonly<
  Record<string, { readonly pattern: Pick<RegExp, 'test'>; readonly name: string }>
> = {
  'std::uuid': { pattern: { test: isUuid }, name: 'a UUID' },
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
/**
 * A float's text: what `Number` reads as the JSON number sent (`.5`, `5.` included). Integers
 * and exact numbers use the binder's own forms (core's `EXACT_TEXT`), after an optional `+`.
 */
const FLOAT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

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
      if (!EXACT_TEXT.integer.test(unsigned(text))) refuse('an integer');
      const n = Number(text);
      if (n < kind.min || n > kind.max) refuse(`an integer from ${kind.min} to ${kind.max}`);
      return n;
    }
    case 'number': {
      if (!FLOAT.test(text)) refuse('a number');
      return Number(text);
    }
    case 'exact': {
      // Kept as text so every digit of a bigint or decimal survives (the binder accepts it).
      const digits = unsigned(text);
      if (!(kind.integer ? EXACT_TEXT.integer : EXACT_TEXT.decimal).test(digits))
        refuse(kind.integer ? 'an integer' : 'a number');
      return digits;
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

/** `text` without a leading `+` (the binder's forms have none). */
function unsigned(text: string): string {
  return text.startsWith('+') ? text.slice(1) : text;
}
