/**
 * Webhook delivery (docs/http.md, "Webhooks"), once and without retry: each event goes, as JSON,
 * to every subscription whose `events` list its type, signed with that subscription's secret.
 *
 * - Body: the event object as JSON, `{"eventId","eventType","timestamp","userId"?,"email"?, ...}`;
 *   exactly the bytes that are signed.
 * - Headers: `Content-Type: application/json`, `X-Svc-Event: <eventType>`, `X-Svc-Delivery:
 *   <eventId>`, `X-Svc-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`.
 * - One attempt, no retry, redirects not followed (a signed body is never re-sent elsewhere). A
 *   delivery is bounded by a timeout (10 s by default). Network errors, timeouts and non-2xx answers
 *   are logged with `logger.error` (the URL without its query, which may hold a key; never the
 *   body, which may hold tokens) and never thrown.
 *
 * Receivers check a request with `verifyWebhookSignature(secret, rawBody, header)`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { commonError, type SvcError } from '@svc/core';
import {
  consoleLogger,
  describeError,
  isAuthEventType,
  type AuthLogger,
  type EventBus,
} from '../events';
import type { AuthEvent, WebhookSubscription } from '../types';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const SIGNATURE_HEADER = 'X-Svc-Signature-256';
export const EVENT_HEADER = 'X-Svc-Event';
export const DELIVERY_HEADER = 'X-Svc-Delivery';

export interface WebhookOptions {
  readonly logger?: AuthLogger;
  /** The Fetch implementation (tests). @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Upper bound on one delivery, in milliseconds. @default 10000 */
  readonly timeoutMs?: number;
}

/** `sha256=<hex HMAC-SHA256 of body with secret>`: the value of `X-Svc-Signature-256`. */
export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const SIGNATURE_FORMAT = /^sha256=([0-9a-f]{64})$/;

/**
 * True when `header` is the signature of exactly these body bytes with this secret. Compares in
 * constant time; a malformed, missing or upper-case header is false. Pass the raw body as
 * received, before any JSON parsing.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string | Uint8Array,
  header: string | null | undefined,
): boolean {
  if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
  const match = SIGNATURE_FORMAT.exec(header);
  if (match === null) return false;
  const given = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function invalid(message: string): SvcError {
  return commonError('VALIDATION_ERROR', message);
}

const SUBSCRIPTION_KEYS: ReadonlySet<string> = new Set(['url', 'events', 'secret']);

/** Validates the `webhooks` configuration; throws `VALIDATION_ERROR` naming the bad entry. */
export function validateWebhookSubscriptions(
  subscriptions: unknown,
): readonly WebhookSubscription[] {
  if (subscriptions === undefined || subscriptions === null) return [];
  if (!Array.isArray(subscriptions))
    throw invalid('webhooks must be an array of {url, events, secret}');
  return Object.freeze(
    subscriptions.map((entry: unknown, i): WebhookSubscription => {
      const where = `webhooks[${i}]`;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        throw invalid(`${where} must be an object {url, events, secret}`);
      for (const key of Object.keys(entry)) {
        if (!SUBSCRIPTION_KEYS.has(key))
          throw invalid(`${where}.${key} is not a webhook key (expected url, events, secret)`);
      }
      const { url, events, secret } = entry as Record<string, unknown>;
      if (typeof url !== 'string' || /\s/.test(url))
        throw invalid(`${where}.url must be an absolute http:// or https:// URL`);
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw invalid(`${where}.url must be an absolute http:// or https:// URL`);
      }
      if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
        throw invalid(
          `${where}.url must be an absolute http:// or https:// URL, got ${parsed.protocol}`,
        );
      }
      if (!Array.isArray(events) || events.length === 0)
        throw invalid(`${where}.events must be a non-empty list of event kinds`);
      for (const type of events) {
        if (!isAuthEventType(type))
          throw invalid(`${where}.events: ${JSON.stringify(type)} is not an event kind`);
      }
      if (typeof secret !== 'string' || secret.length === 0)
        throw invalid(`${where}.secret must be a non-empty string`);
      return Object.freeze({ url, events: Object.freeze([...events]), secret });
    }),
  );
}

/** Scheme, host, port and path: a URL safe to log (no user info, query or fragment). */
function loggableUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/**
 * Subscribes webhook delivery to the bus. Validates `subscriptions` first (throws at
 * construction). Returns the unsubscribe function; with no subscription, nothing is subscribed.
 */
export function installWebhooks(
  bus: EventBus,
  subscriptions: readonly WebhookSubscription[] | undefined,
  options: WebhookOptions = {},
): () => void {
  const subs = validateWebhookSubscriptions(subscriptions);
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw invalid('webhook timeoutMs must be a positive number');
  if (subs.length === 0) return () => {};
  const logger = options.logger ?? consoleLogger;
  const doFetch = options.fetch ?? globalThis.fetch;

  const deliver = async (
    sub: WebhookSubscription,
    event: AuthEvent,
    body: string,
  ): Promise<void> => {
    const where = { url: loggableUrl(sub.url), eventType: event.eventType, eventId: event.eventId };
    try {
      const response = await doFetch(sub.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'svc-auth-webhooks',
          [EVENT_HEADER]: event.eventType,
          [DELIVERY_HEADER]: event.eventId,
          [SIGNATURE_HEADER]: signWebhookBody(sub.secret, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Nobody reads the answer: release the connection.
      await response.body?.cancel().catch(() => {});
      if (response.status < 200 || response.status > 299) {
        logger.error(
          { ...where, status: response.status },
          `webhook delivery failed: HTTP ${response.status} (no retry)`,
        );
      }
    } catch (err) {
      // By name, not instanceof: the DOMException may come from another realm.
      const name =
        typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      logger.error(
        { ...where, err: describeError(err) },
        timedOut
          ? `webhook delivery timed out after ${timeoutMs} ms (no retry)`
          : 'webhook delivery failed (no retry)',
      );
    }
  };

  return bus.on(async (event) => {
    const targets = subs.filter((sub) => sub.events.includes(event.eventType));
    if (targets.length === 0) return;
    const body = JSON.stringify(event);
    await Promise.all(targets.map((sub) => deliver(sub, event, body)));
  });
}
