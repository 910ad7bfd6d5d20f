/**
 * plan/answer: the engine's JSON text (the result array, as PostgreSQL built it) as the body
 * REST answers (docs/http.md: a list is the bare array, one object the bare object).
 *
 * The text is never parsed: a list is the text as it came; one object is the array's text
 * without its brackets (the statement asked `atMostOne`, so there is one element at most).
 * Single expanded links are already objects (or null) in it: every REST statement is compiled
 * with `singleLinks: 'object'` (plan/index.ts).
 */
import type { RestQuery } from '.';

const EMPTY = /^\s*\[\s*\]\s*$/;

/** Whether the engine's text is the empty array. */
export function isEmptyResult(text: string): boolean {
  return EMPTY.test(text);
}

/**
 * The body to send for `plan`'s answer: the array for a list, the object otherwise; `null`
 * when one object was asked for and there is none (the 404 of get and update).
 */
export function answerBody(plan: Pick<RestQuery, 'answer'>, text: string): string | null {
  if (plan.answer === 'list') return text;
  if (isEmptyResult(text)) return null;
  return text.trim().slice(1, -1).trim();
}
