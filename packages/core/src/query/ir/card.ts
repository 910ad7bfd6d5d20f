/**
 * query/ir/card: cardinality bounds of an IR set and their arithmetic (Gel's cardinality
 * inference rules): how many elements a set may have, as the binder infers it before anything runs.
 */

/** How many elements a set may have: `min` 0 or 1, `max` 0 (always empty), 1 or many. */
export interface Card {
  readonly min: 0 | 1;
  readonly max: 0 | 1 | 'many';
}
export const ONE: Card = { min: 1, max: 1 };
export const AT_MOST_ONE: Card = { min: 0, max: 1 };
export const MANY: Card = { min: 0, max: 'many' };
export const AT_LEAST_ONE: Card = { min: 1, max: 'many' };
export const EMPTY: Card = { min: 0, max: 0 };

/** One result per combination of inputs: a path step, an element-wise operator. */
export function cardProduct(a: Card, b: Card): Card {
  const max = a.max === 0 || b.max === 0 ? 0 : a.max === 'many' || b.max === 'many' ? 'many' : 1;
  return { min: a.min === 1 && b.min === 1 && max !== 0 ? 1 : 0, max };
}

/** `a union b`. */
export function cardUnion(a: Card, b: Card): Card {
  const max = a.max === 0 ? b.max : b.max === 0 ? a.max : 'many';
  return { min: a.min === 1 || b.min === 1 ? 1 : 0, max };
}

/** Either one or the other (if/else, `??` bounds). */
export function cardEither(a: Card, b: Card): Card {
  const max = a.max === 'many' || b.max === 'many' ? 'many' : a.max === 1 || b.max === 1 ? 1 : 0;
  return { min: a.min === 1 && b.min === 1 ? 1 : 0, max };
}

export function cardOptional(c: Card): Card {
  return { min: 0, max: c.max };
}

export function cardAtMostOne(c: Card): Card {
  return { min: c.min, max: c.max === 'many' ? 1 : c.max };
}

/** The API's name for a cardinality. */
export function cardName(c: Card): 'atMostOne' | 'one' | 'many' | 'atLeastOne' {
  if (c.max === 'many') return c.min === 1 ? 'atLeastOne' : 'many';
  return c.min === 1 ? 'one' : 'atMostOne';
}
