import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { securityHeaders } from '.';
import { selfSignedCertificate } from '../../../test/helpers';
import { request } from '../../testing';

function app() {
  const a = express();
  a.use(securityHeaders());
  a.get('/', (_req, res) => void res.json({ ok: true }));
  return a;
}

test('plain HTTP: nosniff and Referrer-Policy, no HSTS', async () => {
  const res = await request(app(), '/');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('strict-transport-security')).toBeNull();
});

// Real HTTPS: HSTS depends on the socket being TLS.
test('TLS: HSTS as well', async () => {
  const { cert, key } = selfSignedCertificate();
  const server = https.createServer({ cert, key }, app()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      https
        .get(
          `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
          { ca: cert },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers));
          },
        )
        .on('error', reject);
    });
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['x-content-type-options']).toBe('nosniff');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
