import type { NextFunction, Request, Response } from 'express';
import { appWith, request, type InProcessInit } from '../../testing';
import { cookieRequestGuard } from '.';

type Call = (path: string, init?: InProcessInit) => Promise<globalThis.Response>;

/**
 * The guard as the auth gate calls it, in-process: a POST that says it is authenticated by the
 * cookie answers 200 when the guard lets it through, else the envelope.
 */
async function withGuard(
  trusted: readonly string[],
  run: (call: Call) => Promise<void>,
): Promise<void> {
  const guard = cookieRequestGuard(trusted);
  const app = appWith([
    (req: Request, res: Response, next: NextFunction) => {
      try {
        guard(req, 'cookie');
        res.status(200).json({ ok: true });
      } catch (err) {
        next(err);
      }
    },
  ]);
  await run((path, init) => request(app, path, init));
}

// The server's own origin is the scheme of the connection and the Host the browser addressed.
test('own origin from Host and scheme; listed origins pass; * trusts no one', async () => {
  await withGuard(['https://app.example.com', '*'], async (call) => {
    // The in-process request's Host is localhost unless set (fetch() would not let a caller set it).
    const post = async (headers: Record<string, string>) =>
      (await call('/write', { method: 'POST', headers })).status;
    expect(await post({ origin: 'http://localhost' })).toBe(200);
    // Through a proxy that keeps Host: the browser's page is on db.example.com.
    expect(await post({ host: 'db.example.com', origin: 'http://db.example.com' })).toBe(200);
    expect(await post({ host: 'DB.example.com:80', origin: 'http://db.example.com' })).toBe(200);
    // A proxy that terminates TLS: the browser says https, the server sees http. Refused unless listed.
    expect(await post({ host: 'db.example.com', origin: 'https://db.example.com' })).toBe(403);
    expect(await post({ origin: 'https://app.example.com' })).toBe(200);
    expect(await post({ origin: 'https://evil.example' })).toBe(403);
    expect(await post({ 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await post({})).toBe(200);
  });
});

test('the refusal is 403 ACCESS_DENIED in the envelope', async () => {
  await withGuard([], async (call) => {
    const res = await call('/write', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: 'ACCESS_DENIED',
      error: expect.stringMatching(/^ACCESS_DENIED: cross-site request refused/),
    });
  });
});
