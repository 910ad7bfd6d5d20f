/**
 * The passkey helpers without a browser: a stand-in `navigator.credentials` checks that the
 * server's JSON options reach it with binary fields as ArrayBuffers, and that its answer goes
 * back as the base64url fields of the finish routes; and base64url itself.
 */
import { fromBase64url, jwtClaims, toBase64url } from './base64url';
import { createPasskey, getPasskey } from './passkey';

const bytes = (...b: number[]) => new Uint8Array(b).buffer;
const text = (buf: ArrayBuffer) => toBase64url(buf);

function withNavigator(credentials: unknown, run: () => Promise<void>) {
  Object.defineProperty(globalThis, 'navigator', {
    value: { credentials },
    configurable: true,
  });
  return run().finally(() => {
    delete (globalThis as { navigator?: unknown }).navigator;
  });
}

test('base64url round-trips every byte, unpadded, and refuses other text', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  const encoded = toBase64url(all);
  expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(new Uint8Array(fromBase64url(encoded))).toEqual(all);
  expect(toBase64url(bytes(0xfb, 0xff))).toBe('-_8');
  expect(new Uint8Array(fromBase64url('-_8='))).toEqual(new Uint8Array([0xfb, 0xff]));
  expect(() => fromBase64url('a+b/')).toThrow(TypeError);
  expect(jwtClaims(`x.${toBase64url(new TextEncoder().encode('{"exp":5}'))}.y`)).toEqual({
    exp: 5,
  });
  expect(jwtClaims('not a jwt')).toBeNull();
});

test('createPasskey converts the creation options and the attestation', async () => {
  let seen: PublicKeyCredentialCreationOptions | undefined;
  await withNavigator(
    {
      create: async ({ publicKey }: CredentialCreationOptions) => {
        seen = publicKey;
        return {
          rawId: bytes(1, 2, 3),
          response: { clientDataJSON: bytes(4), attestationObject: bytes(5, 6) },
        };
      },
      get: async () => null,
    },
    async () => {
      const answer = await createPasskey({
        challenge: 'AQID',
        rp: { id: 'localhost', name: 'x' },
        user: { id: 'BAUG', name: 'a@example.com', displayName: 'a' },
        excludeCredentials: [{ id: 'Bwg', type: 'public-key' }],
      });
      expect(answer).toEqual({
        credentialId: text(bytes(1, 2, 3)),
        clientDataJSON: text(bytes(4)),
        attestationObject: text(bytes(5, 6)),
      });
    },
  );
  expect(new Uint8Array(seen!.challenge as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
  expect(new Uint8Array(seen!.user.id as ArrayBuffer)).toEqual(new Uint8Array([4, 5, 6]));
  expect(seen!.rp).toEqual({ id: 'localhost', name: 'x' });
  expect(new Uint8Array(seen!.excludeCredentials![0]!.id as ArrayBuffer)).toEqual(
    new Uint8Array([7, 8]),
  );
});

test('getPasskey converts the request options and the assertion; a refusal is an AuthError', async () => {
  await withNavigator(
    {
      create: async () => null,
      get: async ({ publicKey }: CredentialRequestOptions) => {
        expect(publicKey!.allowCredentials).toEqual([]);
        return {
          rawId: bytes(9),
          response: {
            clientDataJSON: bytes(1),
            authenticatorData: bytes(2),
            signature: bytes(3),
            userHandle: null,
          },
        };
      },
    },
    async () => {
      expect(await getPasskey({ challenge: 'AQ' })).toEqual({
        credentialId: 'CQ',
        clientDataJSON: 'AQ',
        authenticatorData: 'Ag',
        signature: 'Aw',
      });
    },
  );
  await withNavigator(
    {
      create: async () => null,
      get: async () => {
        throw Object.assign(new Error('no'), { name: 'NotAllowedError' });
      },
    },
    async () => {
      await expect(getPasskey({ challenge: 'AQ' })).rejects.toMatchObject({
        name: 'AuthError',
        code: 'PASSKEY_CANCELLED',
      });
    },
  );
});
