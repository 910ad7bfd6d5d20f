import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { renderError } from '@svc/core';
import { cookieRequestGuard } from '.';

/**
 * The guard as the auth gate calls it, over real HTTP: a POST that says it is authenticated by
 * the cookie answers 200 when the guard lets it through, else the envelope.
 */
async function withGuard(trusted: readonly string[], run: (base: string) => Promise<void>): Promise<void> {
  const guard = cookieRequestGuard(trusted);
  const app = express();
  app.post('/write', (req: Request, res: Response, next: NextFunction) => {
    try {
      guard(req, 'cookie');
      res.status(200).json({ ok: true });
    } catch (err) {
      next(err);
    }
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const rendered = renderError(err);
    res.status(rendered.status).json(rendered.body);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

// The server's own origin is the scheme of the connection and the Host the browser addressed.
test('own origin from Host and scheme; listed origins pass; * trusts no one', async () => {
  await withGuard(['https://app.example.com', '*'], async (base) => {
    // node:http, since fetch() does not let a caller set Host.
    const post = (headers: Record<string, string>) =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = http.request(`${base}/write`, { method: 'POST', headers }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await post({ origin: base })).toBe(200);
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
  await withGuard([], async (base) => {
    const res = await fetch(`${base}/write`, { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ACCESS_DENIED', error: expect.stringMatching(/^ACCESS_DENIED: cross-site request refused/) });
  });
});
