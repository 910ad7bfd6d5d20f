import type { Request, Response } from 'express';
import { appWith, request } from '../../testing';
import { jsonBody } from '.';

const app = appWith([
  jsonBody(64),
  (req: Request, res: Response) => void res.status(200).json({ body: req.body ?? null }),
]);
const post = (body: string, contentType = 'application/json') =>
  request(app, '/thing', { method: 'POST', headers: { 'content-type': contentType }, body });

test('JSON within the limit is parsed, application/*+json too', async () => {
  expect(await (await post('{"a":1}')).json()).toEqual({ body: { a: 1 } });
  expect(await (await post('{"a":2}', 'application/merge-patch+json')).json()).toEqual({
    body: { a: 2 },
  });
});

test('over the limit: 413 PAYLOAD_TOO_LARGE naming it', async () => {
  const res = await post(JSON.stringify({ a: 'x'.repeat(64) }));
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({
    code: 'PAYLOAD_TOO_LARGE',
    error: 'PAYLOAD_TOO_LARGE: request body exceeds 64 bytes',
  });
});

test('not JSON: 400 VALIDATION_ERROR; only objects and arrays (strict)', async () => {
  for (const text of ['{"a": ', '"a string"']) {
    const res = await post(text);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'VALIDATION_ERROR: request body is not valid JSON',
    });
  }
});

test('a body of another media type: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
  const res = await post('select 1', 'text/plain');
  expect(res.status).toBe(415);
  expect(await res.json()).toEqual({
    code: 'UNSUPPORTED_MEDIA_TYPE',
    error: 'UNSUPPORTED_MEDIA_TYPE: request body must be JSON (Content-Type: application/json)',
  });
});

test('no body, or an empty one, whatever the Content-Type: passes with no body', async () => {
  expect(await (await request(app, '/thing', { method: 'POST' })).json()).toEqual({ body: null });
  expect(
    await (
      await request(app, '/thing', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'content-length': '0' },
      })
    ).json(),
  ).toEqual({ body: null });
  expect(await (await request(app, '/thing')).json()).toEqual({ body: null });
});
