/**
 * client/codec: values between JavaScript and svc's JSON. Results are decoded by the type
 * descriptor `describe` gives (docs/http.md, "Describe"), where JSON loses information:
 *
 * | EdgeQL                                  | JavaScript                                          |
 * | --------------------------------------- | --------------------------------------------------- |
 * | int16, int32, float32, float64          | number                                              |
 * | int64                                   | number, as gel-js: one beyond ±(2^53 − 1) is a NumericOutOfRangeError (`int64: 'bigint'`: always a bigint) |
 * | bigint                                  | bigint                                              |
 * | decimal                                 | string (every digit kept)                           |
 * | datetime                                | Date                                                |
 * | bytes                                   | Uint8Array                                          |
 * | json                                    | the JSON value                                      |
 * | cal::local_date, local_time, local_datetime | LocalDate, LocalTime, LocalDateTime     |
 * | duration, cal::relative_duration, cal::date_duration | Duration, RelativeDuration, DateDuration |
 * | range, multirange                       | Range, an array of Range                            |
 * | tuple, array                            | array; named tuple, object: plain object            |
 * | single link shown with a sub-shape      | the object or null (not `/query`'s array of one)    |
 *
 * Variables are encoded by their JavaScript type: bigint as a string of digits, Uint8Array as
 * base64, a value with `toJSON` (Date, the temporal classes) as what it gives, arrays and plain
 * objects element by element.
 */

import { NumericOutOfRangeError } from './errors';
import { ExactNumber, plainJson } from './json';
import { Range } from './range';
import {
  DateDuration,
  Duration,
  LocalDate,
  LocalDateTime,
  LocalTime,
  RelativeDuration,
} from './temporal';

/**
 * A type descriptor of `describe` (docs/http.md, "Describe"): the server's types (@svc/core
 * query/api), written again here because the client depends on nothing; test/client.test.ts
 * checks that a server description is a client one.
 */
export type TypeDescriptor =
  | { readonly kind: 'scalar'; readonly name: string; readonly base?: string }
  | { readonly kind: 'enum'; readonly name: string; readonly values: readonly string[] }
  | { readonly kind: 'array'; readonly element: TypeDescriptor }
  | { readonly kind: 'tuple'; readonly elements: readonly TypeDescriptor[] }
  | {
      readonly kind: 'namedtuple';
      readonly elements: readonly { readonly name: string; readonly type: TypeDescriptor }[];
    }
  | { readonly kind: 'range'; readonly element: TypeDescriptor }
  | { readonly kind: 'multirange'; readonly element: TypeDescriptor }
  | {
      readonly kind: 'object';
      readonly name: string;
      readonly pointers: readonly PointerDescriptor[];
    }
  | { readonly kind: 'id'; readonly name: string }
  | { readonly kind: 'empty' };

export type Cardinality = 'empty' | 'atMostOne' | 'one' | 'many' | 'atLeastOne';

export interface PointerDescriptor {
  readonly name: string;
  readonly cardinality: Cardinality;
  readonly type: TypeDescriptor;
}

/** What `describe` answers for a query. */
export interface QueryDescription {
  readonly input: {
    readonly kind: 'arguments';
    readonly arguments: readonly {
      readonly name: string;
      readonly type: TypeDescriptor;
      readonly required: boolean;
    }[];
  };
  readonly output: TypeDescriptor;
  readonly cardinality: Cardinality;
}

export interface DecodeOptions {
  /** `number` (default): a bigint only beyond ±(2^53 − 1); `bigint`: always a bigint. */
  readonly int64?: 'number' | 'bigint';
}

/** One element of a result, from svc's JSON to JavaScript. */
export function decode(type: TypeDescriptor, value: unknown, options: DecodeOptions = {}): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'scalar':
      return decodeScalar(type.base ?? type.name, value, options);
    case 'array':
      return (value as unknown[]).map((v) => decode(type.element, v, options));
    case 'multirange':
      return (value as unknown[]).map((v) =>
        decode({ kind: 'range', element: type.element }, v, options),
      );
    case 'tuple':
      return (value as unknown[]).map((v, i) =>
        decode(type.elements[i] ?? { kind: 'empty' }, v, options),
      );
    case 'namedtuple': {
      const record = value as Record<string, unknown>;
      return Object.fromEntries(
        type.elements.map((e) => [e.name, decode(e.type, record[e.name], options)]),
      );
    }
    case 'range': {
      const range = value as Record<string, unknown>;
      if (range.empty === true) return Range.empty();
      return new Range(
        decode(type.element, range.lower, options),
        decode(type.element, range.upper, options),
        range.inc_lower === true,
        range.inc_upper === true,
      );
    }
    case 'object': {
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const p of type.pointers) out[p.name] = decodePointer(p, record[p.name], options);
      return out;
    }
    default:
      return plainJson(value);
  }
}

function decodePointer(p: PointerDescriptor, value: unknown, options: DecodeOptions): unknown {
  if (p.cardinality === 'many' || p.cardinality === 'atLeastOne')
    return ((value as unknown[] | null) ?? []).map((v) => decode(p.type, v, options));
  // `/query` answers a single link shown with a sub-shape as an array of its object.
  if (Array.isArray(value) && p.type.kind === 'object') return decode(p.type, value[0], options);
  return decode(p.type, value, options);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A number's text as svc wrote it (json.ts keeps the ones a double would change). */
const numberText = (value: unknown): string =>
  value instanceof ExactNumber ? value.text : String(value);

function decodeScalar(name: string, value: unknown, options: DecodeOptions): unknown {
  switch (name) {
    case 'std::int64': {
      const big = BigInt(numberText(value));
      if (options.int64 === 'bigint') return big;
      // A number would round it: refused, never a silent loss (and never a bigint where the
      // generated types say number).
      if (big > SAFE || big < -SAFE)
        throw new NumericOutOfRangeError(
          `integer overflow: <std::int64>'${big}' does not fit a JavaScript number without losing precision`,
          { hint: "createClient({ int64: 'bigint' }) decodes every int64 as a bigint" },
        );
      return Number(big);
    }
    case 'std::bigint':
      return BigInt(numberText(value));
    case 'std::decimal':
      return numberText(value);
    case 'std::datetime':
      return new Date(value as string);
    case 'std::bytes':
      return fromBase64(value as string);
    case 'cal::local_date':
      return LocalDate.parse(value as string);
    case 'cal::local_time':
      return LocalTime.parse(value as string);
    case 'cal::local_datetime':
      return LocalDateTime.parse(value as string);
    case 'std::duration':
      return Duration.parse(value as string);
    case 'cal::relative_duration':
      return RelativeDuration.parse(value as string);
    case 'cal::date_duration':
      return DateDuration.parse(value as string);
    default:
      return plainJson(value);
  }
}

/** Variables as svc's JSON takes them (docs/http.md, "POST /query"). */
export function encode(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return toBase64(value);
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return (value as { toJSON(): unknown }).toJSON();
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  return value;
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
