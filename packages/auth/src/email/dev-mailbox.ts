/**
 * The development inbox (docs/http.md, "Development inbox"): the emails svc would have sent when
 * no SMTP server is configured, kept in memory, newest first, at most `capacity` (the oldest go
 * first). The server shows it at `/_/mail`; nothing here is persisted or logged. It holds sign-in
 * links and codes, so whoever can read it can sign in as the recipients: the server serves it
 * only to loopback callers unless told otherwise.
 */
import { randomUUID } from 'node:crypto';

export interface DevMailMessage {
  /** An opaque id (a UUID). */
  readonly id: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** The event that made the email (`MagicLinkRequested`, ...). */
  readonly eventType: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export const DEV_MAILBOX_CAPACITY = 100;

export class DevMailbox {
  readonly #messages: DevMailMessage[] = [];
  readonly #listeners = new Set<(message: DevMailMessage) => void>();

  constructor(readonly capacity: number = DEV_MAILBOX_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new TypeError('DevMailbox capacity must be a positive integer');
  }

  /** Keeps a message (dropping the oldest past the capacity); returns it with its id. */
  add(input: Omit<DevMailMessage, 'id' | 'createdAt'>, now: Date = new Date()): DevMailMessage {
    const message: DevMailMessage = Object.freeze({
      id: randomUUID(),
      createdAt: now.toISOString(),
      eventType: input.eventType,
      to: input.to,
      subject: input.subject,
      text: input.text,
      html: input.html,
    });
    this.#messages.unshift(message);
    if (this.#messages.length > this.capacity) this.#messages.length = this.capacity;
    for (const listener of this.#listeners) listener(message);
    return message;
  }

  /** Every message kept, newest first. */
  list(): readonly DevMailMessage[] {
    return [...this.#messages];
  }

  get(id: string): DevMailMessage | undefined {
    return this.#messages.find((m) => m.id === id);
  }

  clear(): void {
    this.#messages.length = 0;
  }

  /** Called with each new message; returns the unsubscribe. */
  onMessage(listener: (message: DevMailMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
