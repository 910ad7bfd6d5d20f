/**
 * @svc/auth/testing: the conformance suite every `AuthStore` must pass, for a store written
 * outside svc (the Postgres and memory stores run it too). Not part of the main entry: nothing
 * here belongs in a program.
 *
 * @example
 * import { defineStoreConformance } from '@svc/auth/testing';
 * defineStoreConformance('my store', { open: async (now) => createMyStore({ now }) },
 *   { describe, test, expect, beforeAll, afterAll, beforeEach });
 */
export { defineStoreConformance, type StoreHarness, type TestApi } from './store/conformance';
export {
  SoftAuthenticator,
  coseKeyOf,
  issueCertificate,
  type AssertionResponse,
  type CertificateOptions,
  type CreateOptions,
  type GetOptions,
  type RegistrationResponse,
  type SoftAttestation,
  type SoftCredential,
} from './webauthn/soft-authenticator';
