/**
 * Settings shown without their secrets (the admin UI's settings page): a value is walked along a
 * description of how each part shows. Whatever the description does not name is left out, so a
 * field added to a nested setting stays hidden until someone says how it shows.
 */

/** What a secret shows as when it is set (an unset one shows as null). */
export const SECRET_SHOWN = '(set)';

/**
 * - `value`: as it is (functions as `(function)`, then JSON);
 * - `secret`: only whether it is set;
 * - `names`: the keys of an object (templates, TLS material), not their contents;
 * - `origin`: a URL's origin only (its path or query may carry a token);
 * - `function`: `(function)` when set;
 * - `{fields}`: an object, each named key as its description says (in its order), the others
 *   left out;
 * - `{each}`: each element of a list, or each value of a record or Map, as `each` says.
 */
export type SettingShow =
  | 'value'
  | 'secret'
  | 'names'
  | 'origin'
  | 'function'
  | { readonly fields: Readonly<Record<string, SettingShow>> }
  | { readonly each: SettingShow };

export function showSetting(value: unknown, show: SettingShow): unknown {
  if (value === undefined || value === null) return null;
  if (typeof show === 'object' && 'fields' in show) {
    if (typeof value !== 'object') return SECRET_SHOWN;
    const out: Record<string, unknown> = {};
    // In the description's order; keys it does not name are left out.
    for (const [key, how] of Object.entries(show.fields)) {
      const part = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
      if (part !== undefined) out[key] = showSetting(part, how);
    }
    return out;
  }
  if (typeof show === 'object') {
    if (Array.isArray(value)) return value.map((v) => showSetting(v, show.each));
    const entries =
      value instanceof Map
        ? [...value.entries()]
        : typeof value === 'object'
          ? Object.entries(value)
          : [];
    return Object.fromEntries(entries.map(([k, v]) => [String(k), showSetting(v, show.each)]));
  }
  switch (show) {
    case 'secret':
      return SECRET_SHOWN;
    case 'function':
      return '(function)';
    case 'names':
      return typeof value === 'object' ? Object.keys(value) : SECRET_SHOWN;
    case 'origin':
      try {
        return new URL(String(value)).origin;
      } catch {
        return SECRET_SHOWN;
      }
    case 'value':
      if (typeof value === 'function') return '(function)';
      return typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
  }
}
