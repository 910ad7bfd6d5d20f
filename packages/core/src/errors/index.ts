/**
 * errors: the one error hierarchy and the one envelope renderer.
 * Input: a thrown value. Output: `{status, headers, body}` in the error envelope of docs/http.md.
 * Invariant: every status is written once, in the table that declares its code.
 */
export * from './svc-error';
export * from './codes';
export * from './query-errors';
export * from './render';
export * from './database-errors';
export * from './frame';
