/**
 * plan/answer: the engine's JSON text (the result array, as PostgreSQL built it) as the body
 * REST answers (DECISIONS "REST": a list a bare array, one object the bare object).
 *
 * The text is not parsed when the shape holds no single expanded link: one object is the
 * array's text without its brackets (the statement asked `atMostOne`, so there is one element
 * at most). A single expanded link comes from the engine as an array of one object (core's
 * convention for a single link with a sub-shape, conformance `links.case`), and REST reads it
 * as the object (or null): only those shapes are parsed, fixed and written again, by core's
 * `stringifyJson`, since a stored `json` value may nest deeper than `JSON.stringify` writes.
 */
import { stringifyJson } from '@svc/core';
import type { Shape } from '../model';
import type { RestQuery } from '.';

type Fix = (object: Record<string, unknown>) => void;

const EMPTY = /^\s*\[\s*\]\s*$/;

/** Whether the engine's text is the empty array. */
export function isEmptyResult(text: string): boolean {
  return EMPTY.test(text);
}

/**
 * The body to send for `plan`'s answer: the array for a list, the object otherwise; `null`
 * when one object was asked for and there is none (the 404 of get and update).
 */
export function answerBody(plan: Pick<RestQuery, 'answer' | 'shape'>, text: string): string | null {
  const fix = plan.shape ? fixOf(plan.shape) : null;
  if (plan.answer === 'list') {
    if (!fix || isEmptyResult(text)) return text;
    const rows = JSON.parse(text) as Record<string, unknown>[];
    for (const row of rows) fix(row);
    return stringifyJson(rows);
  }
  if (isEmptyResult(text)) return null;
  if (!fix) {
    const trimmed = text.trim();
    return trimmed.slice(1, -1).trim();
  }
  const [row] = JSON.parse(text) as Record<string, unknown>[];
  if (!row) return null;
  fix(row);
  return stringifyJson(row);
}

const fixes = new WeakMap<Shape, Fix | null>();

/** What turns a row of `shape` into REST's form; null when the engine's form already is. */
function fixOf(shape: Shape): Fix | null {
  if (fixes.has(shape)) return fixes.get(shape) ?? null;
  const steps: Fix[] = [];
  for (const field of shape.fields) {
    if (!field.expanded) continue;
    const inner = fixOf(field.expanded);
    const name = field.name;
    if (field.many) {
      if (inner) {
        steps.push((o) => {
          const items = o[name];
          if (Array.isArray(items))
            for (const item of items) inner(item as Record<string, unknown>);
        });
      }
      continue;
    }
    steps.push((o) => {
      const value = o[name];
      const one = Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
      o[name] = one;
      if (one !== null && inner) inner(one as Record<string, unknown>);
    });
  }
  const fix: Fix | null =
    steps.length === 0
      ? null
      : (o) => {
          for (const step of steps) step(o);
        };
  fixes.set(shape, fix);
  return fix;
}
