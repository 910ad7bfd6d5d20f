import { commonError } from '@svc/core';

/**
 * The answer of a route the route table already has but whose feature is not in this release:
 * 501 NOT_IMPLEMENTED, saying so. Nothing pretends to work. Each use names its issue.
 */
export function notInThisRelease(what: string): never {
  throw commonError('NOT_IMPLEMENTED', `${what} is not available in this release of svc yet`);
}
