/**
 * The event stream of @svc/auth: events fire after the related write, asynchronously, without
 * retry and without back-pressure.
 *
 * - `emit` stamps the event (random UUID `eventId`, ISO `timestamp`) and returns at once: it never
 *   throws and never waits. Delivery starts on a later turn of the event loop (`setImmediate`), so
 *   the request that caused the event has already returned when listeners run.
 * - Events are delivered in emit order; for one event, listeners are called in subscription order,
 *   each with the same frozen object. Listeners are not awaited one after another: a slow listener
 *   (a webhook, a mail) does not delay the others.
 * - The listeners of an event are those subscribed when it was emitted and still subscribed when
 *   it is delivered.
 * - A listener that throws or rejects is logged with `logger.error` (event type and id, the error's
 *   name and message; never the event itself, which may carry tokens) and affects nobody else.
 * - `settle()` resolves when every delivery started so far (every event emitted before the call)
 *   has finished, for tests and shutdown; events emitted by listeners meanwhile are waited for too
 *   (up to 100 generations of such cascades).
 */
import { randomUUID } from 'node:crypto';
import type { AuthEvent, AuthEventListener, AuthEventType, CreateAuthOptions } from '../types';

export type AuthLogger = NonNullable<CreateAuthOptions['logger']>;

/** What `emit` accepts: the event without the fields the bus stamps. */
export type AuthEventInput = Omit<AuthEvent, 'eventId' | 'timestamp'>;

export interface EventBus {
  /** Stamps and queues the event; returns at once, never throws. */
  emit(event: AuthEventInput): void;
  /** Subscribes; returns the unsubscribe function (idempotent). */
  on(listener: AuthEventListener): () => void;
  /** Resolves when every event emitted so far has been delivered to every listener. */
  settle(): Promise<void>;
}

export interface EventBusOptions {
  readonly logger?: CreateAuthOptions['logger'];
  /** Clock for `timestamp`. @default Date.now */
  readonly now?: () => number;
}

/** Every event kind, in alphabetical order. */
export const AUTH_EVENT_TYPES: readonly AuthEventType[] = Object.freeze([
  'EmailVerificationRequested',
  'EmailVerified',
  'IdentityAuthenticated',
  'IdentityCreated',
  'MagicCodeRequested',
  'MagicLinkRequested',
  'MagicLinkSignupRequested',
  'PasswordResetRequested',
] as const satisfies readonly AuthEventType[]);

/**
 * Audit events (`webauthn_counter_regression`): on the same
 * stream, so `auth.on` listeners and webhook subscriptions naming them receive them; no email.
 */
export const AUDIT_EVENT_TYPES: readonly AuthEventType[] = Object.freeze([
  'webauthn_counter_regression',
] as const satisfies readonly AuthEventType[]);

const MAX_SETTLE_ROUNDS = 100;

const EVENT_TYPE_SET: ReadonlySet<string> = new Set([...AUTH_EVENT_TYPES, ...AUDIT_EVENT_TYPES]);

export function isAuthEventType(value: unknown): value is AuthEventType {
  return typeof value === 'string' && EVENT_TYPE_SET.has(value);
}

/** The default logger: the console, one line per problem. */
export const consoleLogger: AuthLogger = {
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
  info: (obj, msg) => console.info(msg ?? '', obj),
};

export interface ErrorDescription {
  name: string;
  message: string;
  code?: string;
  cause?: ErrorDescription;
}

/** The loggable part of a thrown value: name, message, code and one level of cause; nothing else. */
export function describeError(err: unknown, depth = 0): ErrorDescription {
  // Duck-typed rather than instanceof Error: errors may come from another realm (DOMException).
  if (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { message?: unknown }).message === 'string'
  ) {
    const { name, message, code, cause } = err as {
      name?: unknown;
      message: string;
      code?: unknown;
      cause?: unknown;
    };
    return {
      name: typeof name === 'string' ? name : 'Error',
      message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(cause !== undefined && depth < 1 ? { cause: describeError(cause, depth + 1) } : {}),
    };
  }
  return { name: typeof err, message: String(err) };
}

/** Field order of the event object (and so of the webhook JSON body; docs/http.md, "Webhooks"). */
const FIELD_ORDER = [
  'userId',
  'email',
  'resetToken',
  'verificationToken',
  'magicLinkToken',
  'magicCode',
  'pendingEmail',
] as const;

function stamp(input: AuthEventInput, now: () => number): AuthEvent {
  const out: Record<string, unknown> = {
    eventId: randomUUID(),
    eventType: input.eventType,
    timestamp: new Date(now()).toISOString(),
  };
  for (const key of FIELD_ORDER) if (input[key] !== undefined) out[key] = input[key];
  // Fields of later event kinds ride along after the known ones; the stamp is never overridden.
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && !(key in out) && key !== 'eventId' && key !== 'timestamp')
      out[key] = value;
  }
  return Object.freeze(out) as unknown as AuthEvent;
}

export function createEventBus(options: EventBusOptions = {}): EventBus {
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  /** One entry per `on` call, so the same function subscribed twice is called twice. */
  const listeners = new Set<{ readonly listener: AuthEventListener }>();
  /** One promise per emitted event, settled when all of its listeners have finished. */
  const pending = new Set<Promise<void>>();

  const logListenerError = (err: unknown, event: AuthEvent): void => {
    try {
      logger.error(
        { err: describeError(err), eventType: event.eventType, eventId: event.eventId },
        'auth event listener failed',
      );
    } catch {
      // a broken logger must not break delivery either
    }
  };

  const deliver = async (
    event: AuthEvent,
    targets: readonly { readonly listener: AuthEventListener }[],
  ): Promise<void> => {
    const running: Promise<void>[] = [];
    for (const subscription of targets) {
      if (!listeners.has(subscription)) continue; // unsubscribed between emit and delivery
      try {
        const result = subscription.listener(event);
        if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
          running.push(
            Promise.resolve(result).then(undefined, (err: unknown) => logListenerError(err, event)),
          );
        }
      } catch (err) {
        logListenerError(err, event);
      }
    }
    await Promise.all(running);
  };

  return {
    emit(input) {
      try {
        const event = stamp(input, now);
        const targets = [...listeners];
        if (targets.length === 0) return;
        const delivery = new Promise<void>((resolve) => {
          setImmediate(() => {
            deliver(event, targets).then(resolve, (err: unknown) => {
              logListenerError(err, event);
              resolve();
            });
          });
        });
        pending.add(delivery);
        void delivery.then(() => pending.delete(delivery));
      } catch (err) {
        try {
          logger.error({ err: describeError(err) }, 'auth event could not be emitted');
        } catch {
          // emit never throws
        }
      }
    },
    on(listener) {
      if (typeof listener !== 'function')
        throw new TypeError('on(listener): listener must be a function');
      const subscription = { listener };
      listeners.add(subscription);
      return () => {
        listeners.delete(subscription);
      };
    },
    async settle() {
      // Events emitted by listeners while we wait are waited for too; bounded, so a listener that
      // emits on every event cannot make settle spin forever.
      for (let round = 0; round < MAX_SETTLE_ROUNDS && pending.size > 0; round++) {
        await Promise.all([...pending]);
      }
    },
  };
}
