/**
 * Reading provider claims. `email_verified` arrives as a boolean from most providers and as the
 * string "true"/"false" from some (Apple documents both forms); anything else — absent, null,
 * "yes", 1 — leaves it undefined (docs/http.md, "Auth routes"), which never counts as verified.
 */
export function parseEmailVerified(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** A non-empty string claim, or undefined. */
export function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A subject: a non-empty string, or a number some APIs use for ids (GitHub), as its decimal text. */
export function subjectClaim(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return stringClaim(value);
}
