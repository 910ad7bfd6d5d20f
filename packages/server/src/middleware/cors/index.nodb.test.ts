import express from 'express';
import { cors } from '.';
import type { CorsConfig } from '../../config';
import { request, type InProcessInit } from '../../testing';

type Call = (path: string, init?: InProcessInit) => Promise<Response>;

/** The middleware in front of one route, as the server mounts it, driven in-process. */
async function withApp(config: CorsConfig, run: (call: Call) => Promise<void>): Promise<void> {
  const app = express();
  app.use(cors(config));
  app.post('/thing', (_req, res) => void res.status(201).json({ ok: true }));
  app.all('/thing', (_req, res) => void res.status(405).setHeader('Allow', 'POST').end());
  await run((path, init) => request(app, path, init));
}

const CORS_HEADERS = /^access-control-/;
const corsHeaders = (res: Response) => [...res.headers.keys()].filter((h) => CORS_HEADERS.test(h));
const preflight = (call: Call, origin: string, requestHeaders?: string) =>
  call('/thing', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
    },
  });

describe('listed origins, with credentials', () => {
  const config = {
    origins: ['https://app.example.com', 'http://localhost:5173'],
    credentials: true,
  };

  test('a preflight from a listed origin: 204 with the allow headers', async () => {
    await withApp(config, async (call) => {
      const res = await preflight(
        call,
        'http://localhost:5173',
        'Content-Type, Authorization, X-Request-Id, X-Evil',
      );
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toBe(
        'GET, HEAD, POST, PUT, PATCH, DELETE',
      );
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'content-type, authorization, x-request-id',
      );
      expect(res.headers.get('access-control-max-age')).toBe('7200');
      expect(res.headers.get('vary')).toBe(
        'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      );
      expect(await res.text()).toBe('');
    });
  });

  test('a preflight from an unlisted origin: 204 and no CORS headers', async () => {
    await withApp(config, async (call) => {
      for (const origin of [
        'https://evil.example',
        'https://app.example.com.evil.example',
        'null',
        'https://APP.example.com',
      ]) {
        const res = await preflight(call, origin, 'content-type');
        expect(res.status).toBe(204);
        expect(corsHeaders(res)).toEqual([]);
      }
    });
  });

  test('a request from a listed origin gets Allow-Origin, credentials, exposed headers and Vary', async () => {
    await withApp(config, async (call) => {
      const res = await call('/thing', {
        method: 'POST',
        headers: { origin: 'https://app.example.com' },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-expose-headers')).toBe(
        'X-Request-Id, Retry-After, WWW-Authenticate, X-Svc-Schema-Version, X-Svc-Served-By',
      );
      expect(res.headers.get('vary')).toBe('Origin');
    });
  });

  test('other origins and requests without Origin get no CORS headers, but Vary: Origin', async () => {
    await withApp(config, async (call) => {
      for (const headers of [{ origin: 'https://evil.example' }, {}] as Array<
        Record<string, string>
      >) {
        const res = await call('/thing', { method: 'POST', headers });
        expect(res.status).toBe(201);
        expect(corsHeaders(res)).toEqual([]);
        expect(res.headers.get('vary')).toBe('Origin');
      }
    });
  });

  test('an OPTIONS that is not a preflight goes on to the route', async () => {
    await withApp(config, async (call) => {
      const res = await call('/thing', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    });
  });
});

describe("origins ['*'] (no credentials)", () => {
  test('any origin gets Allow-Origin: *, never credentials, and no Vary', async () => {
    await withApp({ origins: ['*'] }, async (call) => {
      const pre = await preflight(call, 'https://anyone.example', 'content-type');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
      const res = await call('/thing', {
        method: 'POST',
        headers: { origin: 'https://anyone.example' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
    });
  });

  test('listed origins without credentials send no Allow-Credentials', async () => {
    await withApp({ origins: ['https://app.example.com'], credentials: false }, async (call) => {
      const res = await preflight(call, 'https://app.example.com');
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-allow-headers')).toBeNull();
    });
  });
});
