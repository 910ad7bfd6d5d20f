/**
 * Text that must not reach storage, found in one place: the HTTP boundary walks every request
 * body through `unstorableText`, and the account validators (metadata, identifiers, passwords)
 * call it for the plain functions. Two kinds of string are refused:
 * - U+0000: PostgreSQL cannot store it in `text` or `jsonb`.
 * - a lone UTF-16 surrogate (a JSON escape such as `"\ud800"` with no partner): not Unicode text
 *   at all. `jsonb` refuses it, a `text` column would silently store U+FFFD in its place, and
 *   Unicode normalisation is undefined for it.
 */
import { commonError } from '@svc/core';

/** With the `u` flag a surrogate pair is one code point, so only a lone surrogate is in category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with a string, if anything: `'NUL characters'`, `'lone UTF-16 surrogates'`, or undefined. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'NUL characters';
  if (LONE_SURROGATE.test(value)) return 'lone UTF-16 surrogates';
  return undefined;
}

/**
 * The first problem of any string or object key in a JSON value, or undefined. The walk keeps its
 * own stack, so nesting of any depth (a 1 MiB body can nest half a million levels) is walked.
 */
export function unstorableText(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push(child);
      }
    }
  }
  return undefined;
}

/** VALIDATION_ERROR naming `what` when `value` holds text that cannot be stored. */
export function refuseUnstorableText(value: unknown, what: string): void {
  const problem = unstorableText(value);
  if (problem) throw commonError('VALIDATION_ERROR', `${what} must not contain ${problem}`);
}

/**
 * NFKC, the normalisation NIST SP 800-63B (5.1.1.2) asks for passwords and that folds look-alike
 * compatibility forms (fullwidth letters, ligatures) of identifiers into one spelling. Refuses
 * strings that are not Unicode text (see above) with VALIDATION_ERROR naming `field`.
 */
export function nfkc(value: string, field: string): string {
  refuseUnstorableText(value, field);
  return value.normalize('NFKC');
}
