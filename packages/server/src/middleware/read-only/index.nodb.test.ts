import type { Request, Response } from 'express';
import { appWith, request } from '../../testing';
import { rejectWritesWhenReadOnly } from '.';

const ok = (_req: Request, res: Response) => void res.status(200).json({ ok: true });

test('read-only: POST, PUT, PATCH and DELETE are 503 READ_ONLY; reads pass', async () => {
  const app = appWith([rejectWritesWhenReadOnly(true), ok]);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    const res = await request(app, '/thing', { method });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      code: 'READ_ONLY',
      error: 'READ_ONLY: the server is in read-only mode; writes are refused',
    });
  }
  for (const method of ['GET', 'HEAD', 'OPTIONS'])
    expect((await request(app, '/thing', { method })).status).toBe(200);
});

test('not read-only: every method passes', async () => {
  const app = appWith([rejectWritesWhenReadOnly(false), ok]);
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    expect((await request(app, '/thing', { method })).status).toBe(200);
});
