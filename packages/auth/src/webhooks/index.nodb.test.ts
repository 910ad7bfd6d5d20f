import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { SvcError } from '@svc/core';
import { createEventBus } from '../events';
import type { WebhookSubscription } from '../types';
import {
  installWebhooks,
  signWebhookBody,
  validateWebhookSubscriptions,
  verifyWebhookSignature,
} from './index';

describe('signWebhookBody / verifyWebhookSignature', () => {
  it('is sha256=<hex HMAC-SHA256 of the raw body>', () => {
    const body = '{"eventId":"1","eventType":"EmailVerified"}';
    const expected = createHmac('sha256', 's3cret').update(body).digest('hex');
    expect(signWebhookBody('s3cret', body)).toBe(`sha256=${expected}`);
    expect(signWebhookBody('s3cret', Buffer.from(body))).toBe(`sha256=${expected}`);
  });

  it('verify(sign(body)) holds for any secret and body', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uint8Array({ maxLength: 512 }),
        (secret, body) => {
          expect(verifyWebhookSignature(secret, body, signWebhookBody(secret, body))).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ unit: 'binary' }), (secret, body) => {
        expect(verifyWebhookSignature(secret, body, signWebhookBody(secret, body))).toBe(true);
      }),
    );
  });

  it('any single-byte change of the body fails', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (secret, body, at, xor) => {
          const signature = signWebhookBody(secret, body);
          const changed = Uint8Array.from(body);
          const i = at % changed.length;
          changed[i] = changed[i]! ^ xor;
          expect(verifyWebhookSignature(secret, changed, signature)).toBe(false);
        },
      ),
    );
  });

  it('any single-byte change of the signature header fails', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uint8Array({ maxLength: 256 }),
        fc.nat(),
        fc.integer({ min: 1, max: 127 }),
        (secret, body, at, xor) => {
          const signature = signWebhookBody(secret, body);
          const i = at % signature.length;
          const changed =
            signature.slice(0, i) +
            String.fromCharCode(signature.charCodeAt(i) ^ xor) +
            signature.slice(i + 1);
          expect(verifyWebhookSignature(secret, body, changed)).toBe(false);
        },
      ),
    );
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['no prefix', 'HEX'],
    ['sha1 prefix', 'sha1=HEX'],
    ['upper-case hex', 'sha256=HEX_UPPER'],
    ['truncated', 'sha256=HEX_SHORT'],
    ['trailing space', 'sha256=HEX '],
  ])('refuses a %s header', (_, header) => {
    const hex = createHmac('sha256', 'k').update('body').digest('hex');
    const value = header
      ?.replace('HEX_UPPER', hex.toUpperCase())
      .replace('HEX_SHORT', hex.slice(0, 63))
      .replace('HEX', hex);
    expect(verifyWebhookSignature('k', 'body', value)).toBe(false);
  });

  it('refuses a signature made with another secret, and an empty secret', () => {
    expect(verifyWebhookSignature('a', 'body', signWebhookBody('b', 'body'))).toBe(false);
    expect(verifyWebhookSignature('', 'body', signWebhookBody('', 'body'))).toBe(false);
  });
});

describe('validateWebhookSubscriptions', () => {
  const ok: WebhookSubscription = {
    url: 'https://hooks.example.com/auth',
    events: ['IdentityCreated'],
    secret: 's',
  };
  it('accepts nothing, an empty list and valid entries', () => {
    expect(validateWebhookSubscriptions(undefined)).toEqual([]);
    expect(validateWebhookSubscriptions([])).toEqual([]);
    expect(
      validateWebhookSubscriptions([ok, { ...ok, url: 'http://10.0.0.5:8080/x' }]),
    ).toHaveLength(2);
  });

  const refused: [string, unknown, RegExp][] = [
    ['not an array', ok, /webhooks must be an array/],
    ['a non-object entry', ['https://x.com'], /webhooks\[0\] must be an object/],
    ['a missing url', [{ ...ok, url: undefined }], /webhooks\[0\]\.url must be an absolute/],
    ['a relative url', [{ ...ok, url: '/hook' }], /webhooks\[0\]\.url must be an absolute/],
    ['an ftp url', [{ ...ok, url: 'ftp://x.com/hook' }], /got ftp:/],
    ['a javascript: url', [{ ...ok, url: 'javascript:alert(1)' }], /got javascript:/],
    ['a url with whitespace', [{ ...ok, url: 'https://x.com/ho ok' }], /url must be/],
    ['empty events', [{ ...ok, events: [] }], /events must be a non-empty list/],
    [
      'events not a list',
      [{ ...ok, events: 'IdentityCreated' }],
      /events must be a non-empty list/,
    ],
    [
      'an unknown event kind',
      [ok, { ...ok, events: ['IdentityCreated', 'identitycreated'] }],
      /webhooks\[1\]\.events: "identitycreated" is not an event kind/,
    ],
    ['an empty secret', [{ ...ok, secret: '' }], /secret must be a non-empty string/],
    ['a missing secret', [{ url: ok.url, events: ok.events }], /secret must be a non-empty string/],
    ['an unknown key', [{ ...ok, retries: 3 }], /webhooks\[0\]\.retries is not a webhook key/],
  ];
  it.each(refused)('refuses %s', (_, value, message) => {
    let error: unknown;
    try {
      validateWebhookSubscriptions(value);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('VALIDATION_ERROR');
    expect((error as SvcError).message).toMatch(message);
  });

  it('installWebhooks validates at construction', () => {
    const bus = createEventBus();
    expect(() => installWebhooks(bus, [{ ...ok, secret: '' }])).toThrow(/secret/);
    expect(() => installWebhooks(bus, [ok], { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe('installWebhooks with an injected fetch', () => {
  it('posts the event JSON with the headers, redirects not followed, and unsubscribes', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('ok', { status: 200 });
    }) as unknown as typeof fetch;
    const bus = createEventBus();
    const off = installWebhooks(
      bus,
      [{ url: 'https://hooks.example.com/a', events: ['PasswordResetRequested'], secret: 'k' }],
      {
        fetch: fakeFetch,
        logger: { error: () => {}, warn: () => {} },
      },
    );
    bus.emit({
      eventType: 'PasswordResetRequested',
      userId: 'u1',
      email: 'a@example.com',
      resetToken: 'tok',
    });
    bus.emit({ eventType: 'EmailVerified', userId: 'u1' });
    await bus.settle();
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(url).toBe('https://hooks.example.com/a');
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    const body = init.body as string;
    expect(JSON.parse(body)).toEqual({
      eventId: expect.any(String),
      eventType: 'PasswordResetRequested',
      timestamp: expect.any(String),
      userId: 'u1',
      email: 'a@example.com',
      resetToken: 'tok',
    });
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Svc-Event']).toBe('PasswordResetRequested');
    expect(headers['X-Svc-Delivery']).toBe(JSON.parse(body).eventId);
    expect(verifyWebhookSignature('k', body, headers['X-Svc-Signature-256'])).toBe(true);
    off();
    bus.emit({ eventType: 'PasswordResetRequested', userId: 'u1' });
    await bus.settle();
    expect(calls).toHaveLength(1);
  });

  it('logs a thrown fetch error and a 3xx without the body or the query string', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const fakeFetch = (async () => {
      if (n++ === 0) throw new TypeError('fetch failed');
      return new Response(null, {
        status: 302,
        headers: { Location: 'https://elsewhere.example.com/' },
      });
    }) as unknown as typeof fetch;
    const bus = createEventBus();
    installWebhooks(
      bus,
      [
        {
          url: 'https://user:pw@hooks.example.com/a?key=QUERYSECRET',
          events: ['MagicLinkRequested'],
          secret: 'k',
        },
      ],
      {
        fetch: fakeFetch,
        logger: {
          error: (obj: unknown, msg?: string) => errors.push({ obj, msg }),
          warn: () => {},
        },
      },
    );
    bus.emit({
      eventType: 'MagicLinkRequested',
      email: 'a@example.com',
      magicLinkToken: 'TOKENSECRET',
    });
    bus.emit({
      eventType: 'MagicLinkRequested',
      email: 'a@example.com',
      magicLinkToken: 'TOKENSECRET',
    });
    await bus.settle();
    expect(errors).toHaveLength(2);
    const logged = JSON.stringify(errors);
    expect(logged).toContain('https://hooks.example.com/a');
    expect(logged).toContain('fetch failed');
    expect(logged).toContain('HTTP 302');
    expect(logged).not.toContain('QUERYSECRET');
    expect(logged).not.toContain('TOKENSECRET');
    expect(logged).not.toContain('pw');
  });
});
