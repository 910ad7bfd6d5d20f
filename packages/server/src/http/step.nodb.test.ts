import { commonError } from '@svc/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { asStep, middleware, type Step } from './step';

const req = {} as Request;
const res = {} as Response;

/** Runs `handler` and resolves with what it passed to `next`, or 'answered' when it never called it. */
function nextOf(handler: RequestHandler): Promise<unknown> {
  return new Promise((resolve) => {
    const next = ((err?: unknown) => resolve(err ?? 'next')) as NextFunction;
    void handler(req, res, next);
    setTimeout(() => resolve('answered'), 50);
  });
}

describe('middleware(step)', () => {
  const boom = commonError('READ_ONLY', 'no');
  test.each<[string, Step, unknown]>([
    ['nothing: next()', () => undefined, 'next'],
    ['false: next()', () => false, 'next'],
    ['true: answered, no next', () => true, 'answered'],
    [
      'a throw: next(err)',
      () => {
        throw boom;
      },
      boom,
    ],
    ['a promise: next() once it resolves', () => Promise.resolve(), 'next'],
    ['a rejection: next(err)', () => Promise.reject(boom), boom],
  ])('%s', async (_name, step, expected) => {
    expect(await nextOf(middleware(step))).toBe(expected);
  });
});

describe('asStep(middleware)', () => {
  const boom = commonError('READ_ONLY', 'no');
  test('resolves on next(), rejects on next(err)', async () => {
    await expect(asStep((_q, _s, next) => next())(req, res)).resolves.toBeUndefined();
    await expect(asStep((_q, _s, next) => next(boom))(req, res)).rejects.toBe(boom);
  });
  test('an async middleware that rejects rejects the step', async () => {
    await expect(
      asStep(async () => {
        throw boom;
      })(req, res),
    ).rejects.toBe(boom);
  });
});
