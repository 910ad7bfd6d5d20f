/**
 * std/bootstrap: the few SQL functions std's SQL forms call, created once per database next to
 * the storage bootstrap (schema/bootstrap), in schema `svc_meta`.
 *
 * Output: idempotent `create or replace function` statements for PostgreSQL 15+ and PGlite.
 * Why functions rather than inline SQL: each formats or checks one value that would otherwise be
 * written out (and evaluated) several times per use; being `immutable` and `language sql` where
 * possible, PostgreSQL inlines or folds them.
 * Invariants:
 * - results never depend on session settings: datetimes are formatted in UTC with `to_char` and
 *   explicit patterns, durations from their fields, text is parsed only after an ISO 8601 check;
 * - errors carry Gel's SQLSTATE and Gel's type names: `svc_meta.raise`
 *   raises with a given SQLSTATE and message and is typed like its first argument so it can stand
 *   in any expression (`coalesce(x, svc_meta.raise(null::int8, '22000', '...'))`).
 */

/** A function; `strict` ones give NULL for a NULL argument without running (all but raise,
 * whose first argument is a typed NULL). */
const fn = (
  signature: string,
  returns: string,
  body: string,
  language = 'sql',
  strict = true,
  volatility: 'immutable' | 'stable' = 'immutable',
): string =>
  `create or replace function "svc_meta".${signature} returns ${returns} language ${language} ${volatility}${strict ? ' strict' : ''} parallel safe as $svc$ ${body} $svc$`;

/** ISO 8601 date and time, extended (`2024-01-02T03:04:05.5`) or basic (`20240102T030405`),
 * seconds and fraction optional, as POSIX regexes. */
const ISO_DATE = '[0-9]{4}-?[0-9]{2}-?[0-9]{2}';
const ISO_TIME = '[0-9]{2}:?[0-9]{2}(:?[0-9]{2}(\\.[0-9]+)?)?';
const ISO_ZONE = '(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)';

/** `select <text> !~ pattern`-guarded parse: raise 22007 naming the Gel type, else cast. */
const parse = (type: string, pattern: string, pg: string): string =>
  `select case when $1 ~ '^${pattern}$' then $1::${pg} else "svc_meta".raise(null::${pg}, '22007', 'invalid input syntax for type ${type}: ' || quote_literal($1)) end`;

export const STD_BOOTSTRAP_SQL: readonly string[] = [
  'create schema if not exists "svc_meta"',
  // Stable, not immutable (as Gel's own raise): PostgreSQL evaluates an immutable call with
  // constant arguments while planning, even in a CASE branch or COALESCE argument that never
  // runs, so `case when <not known yet> then raise(<constants>) ...` would always raise.
  fn(
    'raise(anyelement, text, text)',
    'anyelement',
    'begin raise exception using errcode = $2, message = $3; end',
    'plpgsql',
    false,
    'stable',
  ),
  // Its immutable twin, for index expressions only (PostgreSQL requires every function there to
  // be immutable; schema/ddl-expression rewrites raise to it in an index). Safe there because
  // std's raise helper (std/scalars) makes the first argument depend on the row, so the call is
  // never all constants and so never folded while planning.
  fn(
    'raise_immutable(anyelement, text, text)',
    'anyelement',
    'begin raise exception using errcode = $2, message = $3; end',
    'plpgsql',
    false,
  ),
  // A str as a JSON string: to_jsonb is only stable (for its other types), so an index or a
  // CHECK indexing a JSON string needs this immutable form.
  fn('json_string(text)', 'jsonb', 'select to_jsonb($1)'),
  // Output forms: UTC as `+00:00` (as Gel prints it), trailing zeros of the
  // fraction dropped. JSON's encoding of timestamp and time is ISO 8601 whatever DateStyle says,
  // with the fraction's trailing zeros already dropped: the same text as to_char + regexp_replace
  // at well under half the cost per value (bench/rest), and no session setting read.
  fn(
    'datetime_iso(timestamptz)',
    'text',
    `select (to_json($1 at time zone 'UTC') #>> '{}') || '+00:00'`,
  ),
  fn('local_datetime_iso(timestamp)', 'text', `select to_json($1) #>> '{}'`),
  fn('local_date_iso(date)', 'text', `select to_char($1, 'YYYY-MM-DD')`),
  fn('local_time_iso(time)', 'text', `select to_json($1) #>> '{}'`),
  // A duration is a span of time: everything folded into hours, minutes and seconds.
  fn(
    'duration_iso(interval)',
    'text',
    `select case when s = 0 then 'PT0S' else 'PT'
       || case when trunc(s / 3600) <> 0 then trunc(s / 3600)::text || 'H' else '' end
       || case when trunc(mod(s, 3600) / 60) <> 0 then trunc(mod(s, 3600) / 60)::text || 'M' else '' end
       || case when mod(s, 60) <> 0 then trim_scale(mod(s, 60))::text || 'S' else '' end end
     from (select extract(epoch from $1) as s) as v`,
  ),
  // A relative duration keeps its fields (years, months, days, then time), each with its sign.
  fn(
    'relative_duration_iso(interval)',
    'text',
    `select case when y = 0 and mo = 0 and d = 0 and h = 0 and mi = 0 and s = 0 then 'PT0S' else 'P'
       || case when y <> 0 then y::text || 'Y' else '' end
       || case when mo <> 0 then mo::text || 'M' else '' end
       || case when d <> 0 then d::text || 'D' else '' end
       || case when h = 0 and mi = 0 and s = 0 then '' else 'T'
         || case when h <> 0 then h::text || 'H' else '' end
         || case when mi <> 0 then mi::text || 'M' else '' end
         || case when s <> 0 then trim_scale(s)::text || 'S' else '' end end end
     from (select extract(year from $1) as y, extract(month from $1) as mo, extract(day from $1) as d,
                  extract(hour from $1) as h, extract(minute from $1) as mi, extract(second from $1) as s) as v`,
  ),
  fn(
    'date_duration_iso(interval)',
    'text',
    `select case when y = 0 and mo = 0 and d = 0 then 'P0D' else 'P'
       || case when y <> 0 then y::text || 'Y' else '' end
       || case when mo <> 0 then mo::text || 'M' else '' end
       || case when d <> 0 then d::text || 'D' else '' end end
     from (select extract(year from $1) as y, extract(month from $1) as mo, extract(day from $1) as d) as v`,
  ),
  // Gel's range of dates and times: years 1 to 9999 (PostgreSQL's reach further); a value out
  // of it raises 22008 naming the Gel type. A local time stops before 24:00:00, which PostgreSQL
  // accepts (and rounds 23:59:59.9999999 to).
  ...(
    [
      ['datetime_range(timestamptz)', 'timestamptz', `$1 at time zone 'UTC'`, 'std::datetime'],
      ['local_datetime_range(timestamp)', 'timestamp', '$1', 'cal::local_datetime'],
      ['local_date_range(date)', 'date', '$1', 'cal::local_date'],
    ] as const
  ).map(([signature, pg, utc, type]) =>
    fn(
      signature,
      pg,
      `select case when extract(year from ${utc}) between 1 and 9999 then $1
         else "svc_meta".raise(null::${pg}, '22008', '''${type}'' value out of range: ' || quote_literal($1::text)) end`,
    ),
  ),
  fn(
    'local_time_range(time)',
    'time',
    `select case when $1 < '24:00:00'::time then $1
       else "svc_meta".raise(null::time, '22008', 'cal::local_time field value out of range: ' || quote_literal($1::text)) end`,
  ),
  // Input forms: ISO 8601 only; a datetime needs its zone, local types have none.
  fn(
    'datetime_in(text)',
    'timestamptz',
    `select "svc_meta".datetime_range(t) from (${parse('std::datetime', `${ISO_DATE}[Tt ]${ISO_TIME}${ISO_ZONE}`, 'timestamptz')}) as v(t)`,
  ),
  fn(
    'local_datetime_in(text)',
    'timestamp',
    parse('cal::local_datetime', `${ISO_DATE}[Tt ]${ISO_TIME}`, 'timestamp'),
  ),
  fn('local_date_in(text)', 'date', parse('cal::local_date', ISO_DATE, 'date')),
  fn(
    'local_time_in(text)',
    'time',
    `select "svc_meta".local_time_range(t) from (${parse('cal::local_time', ISO_TIME, 'time')}) as v(t)`,
  ),
  // Durations: PostgreSQL's interval input (ISO 8601 or `1 hour 30 minutes`), then the units rule.
  fn(
    'duration_in(text)',
    'interval',
    `select case when extract(year from i) = 0 and extract(month from i) = 0 and extract(day from i) = 0 then i
       else "svc_meta".raise(null::interval, '22007', 'invalid input syntax for type std::duration: ' || quote_literal($1) || ' (units larger than hours are not allowed)') end
     from (select $1::interval as i) as v`,
  ),
  fn(
    'date_duration_in(text)',
    'interval',
    `select case when i = date_trunc('day', i) then i
       else "svc_meta".raise(null::interval, '22007', 'invalid input syntax for type cal::date_duration: ' || quote_literal($1) || ' (units smaller than days are not allowed)') end
     from (select $1::interval as i) as v`,
  ),
  // `to_datetime(s, fmt)` and the local forms: `to_timestamp` read in UTC, whether or not the
  // format (outside its quoted text) and the input carry a time zone checked against `zoned`.
  // A zone the input leaves out would be the session's: reading it again in another zone tells.
  // The function's own `set timezone` keeps both readings from touching the session (it sets a
  // setting, so it is parallel unsafe).
  `create or replace function "svc_meta".to_timestamp_checked(val text, fmt text, zoned boolean) returns timestamptz language plpgsql volatile strict parallel unsafe set timezone = 'UTC' as $svc$
   declare result timestamptz; other timestamptz; has boolean;
   begin
     has := fmt ~ ('^(("([^"\\\\]|\\\\.)*")|([^"]+))*(' || case when zoned then 'TZH' else 'TZH|TZM' end || ').*$');
     if has <> zoned then
       raise exception using errcode = '22007', message = case when zoned then 'missing required' else 'unexpected' end || ' time zone in format: ' || quote_literal(fmt);
     end if;
     result := to_timestamp(val, fmt);
     perform set_config('TimeZone', 'Etc/GMT+5', true);
     other := to_timestamp(val, fmt);
     if (result = other) <> zoned then
       raise exception using errcode = '22007', message = case when zoned then 'missing required' else 'unexpected' end || ' time zone in input ' || quote_literal(val);
     end if;
     return result;
   end $svc$`,
  // re_match_all: every match's groups, a group that took part in no match as '' (as Gel).
  fn(
    're_match_all(text, text)',
    'setof text[]',
    `select array_replace(m, null::text, '') from regexp_matches($1, $2, 'g') as m`,
  ),
  // `<bigint>'...'`, `<decimal>'...'`: PostgreSQL's numeric input, without what the types cannot
  // hold (a fraction for bigint; NaN and the infinities for both): 22P02 naming the Gel type.
  fn(
    'bigint_in(text)',
    'numeric',
    `select case when scale(v) = 0 then v
       else "svc_meta".raise(null::numeric, '22P02', 'invalid input syntax for type std::bigint: ' || quote_literal($1)) end
     from (select $1::numeric as v) as n`,
  ),
  fn(
    'decimal_in(text)',
    'numeric',
    `select case when v in ('NaN', 'Infinity', '-Infinity')
       then "svc_meta".raise(null::numeric, '22P02', 'invalid input syntax for type std::decimal: ' || quote_literal($1)) else v end
     from (select $1::numeric as v) as n`,
  ),
  // The bytes in reverse order (little-endian <-> big-endian).
  fn(
    'bytes_reverse(bytea)',
    'bytea',
    `select coalesce(string_agg(substring($1 from i for 1), ''::bytea order by i desc), ''::bytea)
     from generate_series(1, length($1)) as i`,
  ),
  // `j[i]` and `j['k']`: one function each, so a chain of accessors stays one call
  // per step (inline, each step would repeat its operand several times). A JSON string indexes
  // by character; the wrong kind of JSON value (JSON null included), a missing key or an index
  // past either end raises 22000 (InvalidValueError). The `_step` forms give the JSON value
  // found, JSON null included: a step inside a chain (`j['a'][0]`), so that indexing through a
  // JSON null raises as Gel does; `json_index` / `json_key` end a chain, where a key or element
  // holding JSON null reads as empty (NULL, spec item 7).
  fn(
    'json_index_step(jsonb, bigint)',
    'jsonb',
    `declare t text := jsonb_typeof($1); n bigint; begin
       if t = 'string' then n := char_length($1 #>> '{}');
       elsif t = 'array' then n := jsonb_array_length($1);
       elsif t = 'object' then raise exception using errcode = '22000', message = 'cannot index JSON object by std::int64';
       else raise exception using errcode = '22000', message = 'cannot index JSON ' || t; end if;
       if $2 >= n or $2 < -n then raise exception using errcode = '22000', message = 'JSON index ' || $2 || ' is out of bounds'; end if;
       if t = 'string' then return to_jsonb(substr($1 #>> '{}', (case when $2 < 0 then n + $2 else $2 end + 1)::integer, 1)); end if;
       return $1 -> (case when $2 < 0 then n + $2 else $2 end)::integer; end`,
    'plpgsql',
  ),
  fn(
    'json_key_step(jsonb, text)',
    'jsonb',
    `declare t text := jsonb_typeof($1); begin
       if t = 'array' then raise exception using errcode = '22000', message = 'cannot index JSON array by std::str';
       elsif t <> 'object' then raise exception using errcode = '22000', message = 'cannot index JSON ' || t; end if;
       if not ($1 ? $2) then raise exception using errcode = '22000', message = 'JSON index ' || quote_literal($2) || ' is out of bounds'; end if;
       return $1 -> $2; end`,
    'plpgsql',
  ),
  fn(
    'json_index(jsonb, bigint)',
    'jsonb',
    `select nullif("svc_meta".json_index_step($1, $2), 'null'::jsonb)`,
  ),
  fn(
    'json_key(jsonb, text)',
    'jsonb',
    `select nullif("svc_meta".json_key_step($1, $2), 'null'::jsonb)`,
  ),
  // `<T>json` checks (Gel's casts from json): the JSON kind a collection cast needs ($2, as
  // Gel words it: 'array', 'object or null'), else 22000 `expected JSON ...; got JSON ...`
  // prefixed by the cast's context ($3: "while casting 'std::json' to '...', "). JSON null
  // passes (it is an empty set).
  fn(
    'json_expect(jsonb, text, text)',
    'jsonb',
    `begin if jsonb_typeof($1) = 'null' or position(jsonb_typeof($1) in $2) > 0 then return $1; end if;
       raise exception using errcode = '22000', message = $3 || 'expected JSON ' || $2 || '; got JSON ' || jsonb_typeof($1); end`,
    'plpgsql',
  ),
  // A JSON array cast to an array of a non-json type: JSON null elements are refused.
  fn(
    'json_array_elements_not_null(jsonb, text)',
    'jsonb',
    `begin if jsonb_typeof($1) = 'array' and exists (select 1 from jsonb_array_elements($1) as e where jsonb_typeof(e) = 'null') then
       raise exception using errcode = '22000', message = $2 || 'in array elements, invalid null value in cast'; end if;
       return $1; end`,
    'plpgsql',
  ),
  // A tuple element read from JSON for a cast ($1): present (else 22000 `missing value in JSON
  // object`) and, unless $3 (the element is a json), not JSON null (else 22000 `invalid null
  // value in cast`), as Gel checks it; $2 is the cast's context.
  fn(
    'json_element(jsonb, text, boolean)',
    'jsonb',
    `begin if $1 is null then
       raise exception using errcode = '22000', message = $2 || 'missing value in JSON object'; end if;
       if not $3 and jsonb_typeof($1) = 'null' then
       raise exception using errcode = '22000', message = $2 || 'invalid null value in cast'; end if;
       return $1; end`,
    'plpgsql',
    false,
  ),
  // `<E>str` for an enum E: a label of E ($2) or 22P02 (InvalidValueError) naming E ($3), as
  // Gel words it, and then E's labels; the DOMAIN's own check would be a 23514 constraint
  // violation.
  fn(
    'enum_in(text, text[], text)',
    'text',
    `select case when $1 = any($2) then $1
       else "svc_meta".raise(null::text, '22P02', 'invalid input value for enum ' || quote_literal($3) || ': ' || to_json($1)::text || ' (its values are ' || array_to_string($2, ', ') || ')') end`,
  ),
  // json `++` (Gel): array ++ array, object ++ object (the right side's keys win), string ++
  // string; any other pair raises 22023 (InvalidValueError).
  fn(
    'json_concat(jsonb, jsonb)',
    'jsonb',
    `select case when jsonb_typeof($1) = jsonb_typeof($2) and jsonb_typeof($1) in ('array', 'object') then $1 || $2
       when jsonb_typeof($1) = 'string' and jsonb_typeof($2) = 'string' then to_jsonb(($1 #>> '{}') || ($2 #>> '{}'))
       else "svc_meta".raise(null::jsonb, '22023', 'invalid JSON values for ++ operator (supported: array ++ array, object ++ object, string ++ string; got ' || jsonb_typeof($1) || ' ++ ' || jsonb_typeof($2) || ')') end`,
  ),
  // `<bool>'...'`: true or false in any case, nothing else.
  fn(
    'bool_in(text)',
    'boolean',
    `select case lower(trim($1)) when 'true' then true when 'false' then false
       else "svc_meta".raise(null::boolean, '22P02', 'invalid input syntax for type std::bool: ' || quote_literal($1)) end`,
  ),
];
