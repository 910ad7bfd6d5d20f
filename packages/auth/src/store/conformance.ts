/**
 * The one conformance suite every `AuthStore` must pass (the Postgres store on PGlite and on
 * PostgreSQL, and the memory store). Call it from a test file with a harness that opens a store
 * over an empty storage and the clock the suite controls, and your test runner's functions
 * (Jest's or Vitest's globals), so a store written outside svc can run it too:
 *
 * @example
 * import { defineStoreConformance } from '@svc/auth/testing';
 * defineStoreConformance('my store', { open: async (now) => createMyStore({ now }) },
 *   { describe, test, expect, beforeAll, afterAll, beforeEach });
 *
 * The cases live beside each feature's verbs, in `<feature>/store.conformance.ts`.
 */
import { accountStoreCases } from '../account/store.conformance';
import { guestStoreCases } from '../guest/store.conformance';
import { mfaStoreCases } from '../mfa/store.conformance';
import { oauthStoreCases } from '../oauth/store.conformance';
import { passwordResetStoreCases } from '../password/store.conformance';
import { passwordlessStoreCases } from '../passwordless/store.conformance';
import { rateLimitStoreCases } from '../rate-limit/store.conformance';
import { roleStoreCases } from '../roles/store.conformance';
import { sessionStoreCases } from '../session/store.conformance';
import { verificationStoreCases } from '../verification/store.conformance';
import { webAuthnStoreCases } from '../webauthn/store.conformance';
import { caseScope, T0, type TestApi } from './conformance-kit';
import type { AuthStore } from './types';

export type { TestApi } from './conformance-kit';

export interface StoreHarness {
  /** Once per file (open a database, migrate...). */
  setup?(): Promise<void>;
  /** A store over empty storage, reading time from `now`. */
  open(now: () => number): Promise<AuthStore>;
  teardown?(): Promise<void>;
}

export function defineStoreConformance(label: string, harness: StoreHarness, api: TestApi): void {
  const { describe, beforeAll, afterAll, beforeEach } = api;
  describe(`AuthStore conformance: ${label}`, () => {
    let store: AuthStore;
    const cx = caseScope(api, () => store);

    beforeAll(async () => {
      await harness.setup?.();
    }, 60_000);
    afterAll(async () => {
      await harness.teardown?.();
    });
    beforeEach(async () => {
      cx.t = T0;
      store = await harness.open(() => cx.t);
    });

    accountStoreCases(cx);
    sessionStoreCases(cx);
    guestStoreCases(cx);
    passwordResetStoreCases(cx);
    verificationStoreCases(cx);
    passwordlessStoreCases(cx);
    roleStoreCases(cx);
    rateLimitStoreCases(cx);
    webAuthnStoreCases(cx);
    mfaStoreCases(cx);
    oauthStoreCases(cx);
  });
}
