/**
 * The captcha gate against a fake siteverify server on 127.0.0.1 (a real HTTP peer): the form
 * each provider receives, the answers mapped to CAPTCHA_FAILED / SERVICE_UNAVAILABLE, and the
 * handler gating its routes before any data access.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useCoreHarness } from '../__tests__/harness';
import {
  CAPTCHA_GATES,
  CAPTCHA_PROVIDERS,
  resolveCaptchaConfig,
  verifyCaptcha,
  type CaptchaProvider,
} from './index';

const h = useCoreHarness();

interface Seen {
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

/** A siteverify stand-in: the token decides the answer. */
function fakeVerifier(): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      seen.push({ path: req.url ?? '', contentType: req.headers['content-type'], form });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      switch (form.response) {
        case 'good':
          return json(200, { success: true, challenge_ts: new Date().toISOString() });
        case 'http500':
          return json(500, { error: 'boom' });
        case 'notjson':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>hello</html>');
        case 'badsecret':
          return json(200, { success: false, 'error-codes': ['invalid-input-secret'] });
        case 'slow':
          return; // never answers; the client's timeout ends it
        default:
          return json(200, { success: false, 'error-codes': ['invalid-input-response'] });
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/siteverify`,
        seen,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

let fake: Awaited<ReturnType<typeof fakeVerifier>>;
beforeAll(async () => {
  fake = await fakeVerifier();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.seen.length = 0;
});

describe('resolveCaptchaConfig', () => {
  test('fills in the provider endpoint and the timeout', () => {
    for (const provider of Object.keys(CAPTCHA_PROVIDERS) as CaptchaProvider[]) {
      expect(resolveCaptchaConfig({ gate: ['register'], provider, secret: 's' })).toEqual({
        gate: ['register'],
        provider,
        secret: 's',
        verifyUrl: CAPTCHA_PROVIDERS[provider],
        timeoutMs: 5000,
      });
    }
    expect(
      resolveCaptchaConfig({ gate: [], provider: 'turnstile', secret: 's', verifyUrl: fake.url })
        .verifyUrl,
    ).toBe(fake.url);
  });

  test.each([
    [null, /captcha must be an object/],
    [{ gate: ['register'], provider: 'nocaptcha', secret: 's' }, /captcha.provider/],
    [{ gate: ['register'], provider: 'hcaptcha', secret: '' }, /captcha.secret/],
    [{ gate: ['register'], provider: 'hcaptcha' }, /captcha.secret/],
    [{ gate: 'register', provider: 'hcaptcha', secret: 's' }, /captcha.gate must be an array/],
    [
      { gate: ['signup'], provider: 'hcaptcha', secret: 's' },
      /unknown captcha.gate operation "signup"/,
    ],
    [{ gate: [], provider: 'hcaptcha', secret: 's', verifyUrl: 'ftp://x' }, /verifyUrl/],
    [{ gate: [], provider: 'hcaptcha', secret: 's', verifyUrl: 'not a url' }, /verifyUrl/],
    [{ gate: [], provider: 'hcaptcha', secret: 's', timeoutMs: 5 }, /timeoutMs/],
    [{ gate: [], provider: 'hcaptcha', secret: 's', sitekey: 'x' }, /unknown key captcha.sitekey/],
  ])('refuses %j', (value, message) => {
    expect(() => resolveCaptchaConfig(value)).toThrow(message);
  });

  test('createAuth refuses a bad captcha config at construction', async () => {
    await expect(
      h.make({ captcha: { gate: ['nope'], provider: 'hcaptcha', secret: 's' } as never }),
    ).rejects.toThrow(/captcha.gate/);
  });

  test('the documented gate operations', () => {
    expect([...CAPTCHA_GATES].sort()).toEqual(
      [
        'anonymous',
        'login',
        'magicCode',
        'magicLink',
        'passwordReset',
        'register',
        'upgrade',
        'verificationResend',
        'webauthnLogin',
      ].sort(),
    );
  });
});

describe('verifyCaptcha', () => {
  const cfg = (provider: CaptchaProvider, over: Record<string, unknown> = {}) =>
    resolveCaptchaConfig({
      gate: ['register'],
      provider,
      secret: `sec-${provider}`,
      verifyUrl: fake.url,
      ...over,
    });

  test.each(Object.keys(CAPTCHA_PROVIDERS) as CaptchaProvider[])(
    '%s: form POST of secret, response, remoteip; success passes',
    async (provider) => {
      await verifyCaptcha(cfg(provider), 'good', { ip: '10.1.2.3' });
      expect(fake.seen).toEqual([
        {
          path: '/siteverify',
          contentType: 'application/x-www-form-urlencoded',
          form: { secret: `sec-${provider}`, response: 'good', remoteip: '10.1.2.3' },
        },
      ]);
    },
  );

  test('no remoteip when the address is unknown', async () => {
    await verifyCaptcha(cfg('hcaptcha'), 'good');
    expect(fake.seen[0]?.form).toEqual({ secret: 'sec-hcaptcha', response: 'good' });
  });

  test.each([
    ['missing', undefined, 'CAPTCHA_FAILED', 400, 0],
    ['empty', '', 'CAPTCHA_FAILED', 400, 0],
    ['not a string', 42, 'CAPTCHA_FAILED', 400, 0],
    ['too long', 'x'.repeat(9000), 'CAPTCHA_FAILED', 400, 0],
    ['refused', 'bad', 'CAPTCHA_FAILED', 400, 1],
    ['provider 500', 'http500', 'SERVICE_UNAVAILABLE', 503, 1],
    ['provider not JSON', 'notjson', 'SERVICE_UNAVAILABLE', 503, 1],
    ['server secret refused', 'badsecret', 'SERVICE_UNAVAILABLE', 503, 1],
    ['provider too slow', 'slow', 'SERVICE_UNAVAILABLE', 503, 1],
  ])('%s → %s', async (_name, token, code, status, calls) => {
    const logged: unknown[] = [];
    const err = await verifyCaptcha(cfg('turnstile', { timeoutMs: 300 }), token, {
      logger: { warn: (o: unknown) => void logged.push(o) },
    }).catch((e) => e);
    expect(err).toMatchObject({ code, status });
    expect(fake.seen).toHaveLength(calls);
    expect(JSON.stringify(logged)).not.toContain('sec-turnstile');
  });

  test('provider unreachable → SERVICE_UNAVAILABLE', async () => {
    const closed = await fakeVerifier();
    await closed.close();
    const err = await verifyCaptcha(cfg('recaptcha', { verifyUrl: closed.url }), 'good').catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });
});

describe('the handler gates the configured routes before any data access', () => {
  const post = (
    auth: { handler: (r: Request, i?: object) => Promise<Response> },
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    auth.handler(
      new Request(`http://127.0.0.1/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
      { ip: '10.4.4.4' },
    );

  test('register gated: missing and refused tokens are 400 CAPTCHA_FAILED and nothing is written', async () => {
    const { auth, events } = await h.make({
      captcha: {
        gate: ['register', 'anonymous'],
        provider: 'hcaptcha',
        secret: 'sec',
        verifyUrl: fake.url,
      },
    });
    const body = { email: 'cap@example.com', password: 'password1' };
    let res = await post(auth, '/register', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'CAPTCHA_FAILED' });
    expect(fake.seen).toHaveLength(0);
    res = await post(auth, '/register', { ...body, captchaToken: 'bad' });
    expect(res.status).toBe(400);
    expect(await auth.findUser('cap@example.com')).toBeNull();
    res = await post(auth, '/register', { ...body, captchaToken: 'good' });
    expect(res.status).toBe(201);
    expect(fake.seen.at(-1)?.form).toEqual({
      secret: 'sec',
      response: 'good',
      remoteip: '10.4.4.4',
    });
    // login is not in the gate
    res = await post(auth, '/login', body);
    expect(res.status).toBe(200);
    // anonymous: gated too
    res = await post(auth, '/anonymous', {});
    expect(res.status).toBe(400);
    res = await auth.handler(new Request('http://127.0.0.1/auth/anonymous', { method: 'POST' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'CAPTCHA_FAILED' });
    res = await post(auth, '/anonymous', { captchaToken: 'good' });
    expect(res.status).toBe(201);
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'IdentityCreated')).toHaveLength(2);
  });

  test('provider down: 503 in the envelope, no stack', async () => {
    const { auth } = await h.make({
      captcha: { gate: ['login'], provider: 'recaptcha', secret: 'sec', verifyUrl: fake.url },
    });
    const res = await post(auth, '/login', {
      email: 'x@example.com',
      password: 'password1',
      captchaToken: 'http500',
    });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      error: expect.stringMatching(/^SERVICE_UNAVAILABLE: /),
    });
  });

  test('auth.verifyCaptcha without captcha config is INVALID_OPERATION', async () => {
    const { auth } = await h.make();
    await expect(auth.verifyCaptcha('good')).rejects.toMatchObject({ code: 'INVALID_OPERATION' });
  });
});
