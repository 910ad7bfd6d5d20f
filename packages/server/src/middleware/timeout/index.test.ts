import type { Request, Response } from 'express';
import pino from 'pino';
import { sendJson } from '../../http/respond';
import { appWith, request } from '../../testing';
import { requestTimeout } from '.';

const silent = pino({ level: 'silent' });

test('past the bound: 408 REQUEST_TIMEOUT in the envelope, Connection: close, the signal aborted, a late answer dropped', async () => {
  let signal: AbortSignal | undefined;
  let late: Promise<void> | undefined;
  const app = appWith([
    requestTimeout(50, silent),
    (_req: Request, res: Response) => {
      signal = res.locals.signal as AbortSignal;
      // Handlers answer through sendJson, which leaves a response already sent alone.
      late = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
        sendJson(res, 200, { late: true }),
      );
    },
  ]);
  const res = await request(app, '/work');
  expect(res.status).toBe(408);
  expect(res.headers.get('connection')).toBe('close');
  expect(await res.json()).toEqual({
    code: 'REQUEST_TIMEOUT',
    error: 'REQUEST_TIMEOUT: request exceeded the 50 ms timeout',
  });
  expect(signal?.aborted).toBe(true);
  await expect(late).resolves.toBeUndefined();
});

test('an answer within the bound goes out as it is and the signal stays quiet', async () => {
  let signal: AbortSignal | undefined;
  const app = appWith([
    requestTimeout(1000, silent),
    (_req: Request, res: Response) => {
      signal = res.locals.signal as AbortSignal;
      res.status(200).json({ ok: true });
    },
  ]);
  const res = await request(app, '/work');
  expect(res.status).toBe(200);
  expect(res.headers.get('connection')).toBe('keep-alive');
  expect(await res.json()).toEqual({ ok: true });
  expect(signal?.aborted).toBe(false);
});
