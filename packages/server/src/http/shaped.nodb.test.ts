import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressShapedClasses } from './shaped';
import { selfSignedCertificate } from '../../test/helpers';

/**
 * An Express app behind a real server built with `expressShapedClasses`, recording for each
 * request whether Node built `req` and `res` with the app's prototypes already (so Express's own
 * `setPrototypeOf` has nothing to change).
 */
function shapedApp() {
  const app = express();
  app.set('query parser', 'simple');
  const born: boolean[] = [];
  app.get('/echo/:name', (req, res) => {
    res.locals.seen = req.query.q;
    res.status(201).json({ name: req.params.name, q: res.locals.seen, ip: req.ip, path: req.path });
  });
  app.post('/stream', (req, res) => {
    let n = 0;
    req.on('data', (chunk: Buffer) => {
      n += chunk.length;
    });
    req.on('end', () => res.type('text/plain').send(String(n)));
  });
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    born.push(
      Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response,
    );
    app(req, res);
  };
  return { app, born, listener };
}

async function listening(server: http.Server | https.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

test('requests and responses are born with the app prototypes, and Express works on them', async () => {
  const { app, born, listener } = shapedApp();
  const server = http.createServer(expressShapedClasses(app), listener);
  const port = await listening(server);
  try {
    // Several requests on one kept-alive connection, and one with a streamed body.
    for (const name of ['a', 'b%20c', 'd']) {
      const res = await fetch(`http://127.0.0.1:${port}/echo/${name}?q=x%27y`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({
        name: decodeURIComponent(name),
        q: "x'y",
        ip: '127.0.0.1',
        path: `/echo/${name}`,
      });
    }
    const body = 'z'.repeat(200_000);
    const res = await fetch(`http://127.0.0.1:${port}/stream`, { method: 'POST', body });
    expect(await res.text()).toBe(String(body.length));
    const head = await fetch(`http://127.0.0.1:${port}/echo/h`, { method: 'HEAD' });
    expect(head.status).toBe(201);
    expect(await head.text()).toBe('');
    expect(born).toEqual([true, true, true, true, true]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('without them every request is rebuilt by Express (what the classes avoid)', async () => {
  const { born, listener } = shapedApp();
  const server = http.createServer(listener);
  const port = await listening(server);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/echo/a`);
    expect(res.status).toBe(201);
    expect(born).toEqual([false]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an HTTPS server takes them too', async () => {
  const { cert, key } = selfSignedCertificate();
  const { app, born, listener } = shapedApp();
  const server = https.createServer({ ...expressShapedClasses(app), cert, key }, listener);
  const port = await listening(server);
  try {
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(`https://127.0.0.1:${port}/echo/t`, { ca: cert }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(201);
    expect(born).toEqual([true]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('made twice for one app (two servers): both serve, and Express still knows its app', async () => {
  const { app, born, listener } = shapedApp();
  app.get('/app', (req, res) => {
    res.json({ reqApp: req.app === app, resApp: res.app === app, json: typeof res.json });
  });
  const first = http.createServer(expressShapedClasses(app), listener);
  const second = http.createServer(expressShapedClasses(app), listener);
  const ports = [await listening(first), await listening(second)];
  try {
    for (const port of ports) {
      const res = await fetch(`http://127.0.0.1:${port}/app`);
      expect(await res.json()).toEqual({ reqApp: true, resApp: true, json: 'function' });
    }
    // The first server's objects now differ from the app's prototypes: Express re-shapes them,
    // as it would without the classes; the second's are born with them.
    expect(born).toEqual([false, true]);
  } finally {
    for (const server of [first, second]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
});

test('the classes are Node’s own, extended: instances are Node requests and responses', () => {
  const app = express();
  const { IncomingMessage, ServerResponse } = expressShapedClasses(app);
  expect(Object.getPrototypeOf(IncomingMessage)).toBe(http.IncomingMessage);
  expect(Object.getPrototypeOf(ServerResponse)).toBe(http.ServerResponse);
  expect(app.request).toBe(IncomingMessage.prototype);
  expect(app.response).toBe(ServerResponse.prototype);
  expect(IncomingMessage.prototype).toBeInstanceOf(http.IncomingMessage);
  expect(ServerResponse.prototype).toBeInstanceOf(http.ServerResponse);
});
