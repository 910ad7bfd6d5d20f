/**
 * The parsers of `verify.ts` and `der.ts` on their own: hostile bytes only ever produce their
 * own error (never a TypeError or RangeError that would become a 500), and the DER reader reads
 * what the test issuer writes.
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import { encodeCbor } from './cbor';
import { certificateFields, DerError, derChildren, oidText, readDer } from './der';
import { issueCertificate, SoftAuthenticator } from './soft-authenticator';
import {
  coseToPublicKey,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientData,
  verifyAttestation,
  WebAuthnError,
} from './verify';

const only = (E: new (...a: never[]) => Error, fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(E);
  }
};

describe('parsers on hostile input', () => {
  test('authenticator data: random bytes, and random tails after a valid header', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) =>
        only(WebAuthnError, () => parseAuthenticatorData(bytes)),
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array({ maxLength: 200 }),
        (flags, tail) => {
          const bytes = Buffer.concat([Buffer.alloc(32), Buffer.from([flags, 0, 0, 0, 1]), tail]);
          only(WebAuthnError, () => parseAuthenticatorData(bytes));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('attestation objects, client data and COSE keys', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        only(WebAuthnError, () => parseAttestationObject(bytes));
        only(WebAuthnError, () => parseClientData(bytes));
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 3 }),
          fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        ),
        fc.integer({ min: -3, max: 3 }),
        fc.uint8Array({ maxLength: 40 }),
        (_extra, key, value) => {
          only(WebAuthnError, () =>
            coseToPublicKey(
              new Map<number, number | Uint8Array>([
                [1, 2],
                [3, -7],
                [-1, 1],
                [-2, new Uint8Array(32)],
                [-3, new Uint8Array(32)],
                [key, value],
              ]),
            ),
          );
        },
      ),
      { numRuns: 500 },
    );
    expect(() => parseClientData(Buffer.from('[]'))).toThrow(/not a JSON object/);
    expect(() => parseClientData(Buffer.from('{"type":"webauthn.get"}'))).toThrow(/lacks/);
    expect(() => parseAttestationObject(encodeCbor(new Map([['fmt', 'none']])))).toThrow(
      /attStmt is not a map/,
    );
  });

  test('DER: random bytes give DerError only', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        only(DerError, () => certificateFields(bytes));
        only(DerError, () => derChildren(bytes));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('DER reading', () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = (version: 1 | 3, aaguid?: Uint8Array) =>
    issueCertificate({
      subject: { C: 'SE', O: 'o', OU: 'Authenticator Attestation', CN: 'c' },
      issuer: { C: 'SE', O: 'o', CN: 'root' },
      publicKey: key.publicKey,
      signingKey: key.privateKey,
      version,
      ca: false,
      aaguid,
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2060-01-01T00:00:00Z'),
    });

  test('version and extensions of an issued certificate (which node:crypto also reads)', () => {
    const aaguid = Buffer.alloc(16, 9);
    const der = cert(3, aaguid);
    const x = new X509Certificate(der);
    expect(x.ca).toBe(false);
    expect(x.subject).toContain('OU=Authenticator Attestation');
    expect(x.verify(key.publicKey)).toBe(true);
    const fields = certificateFields(der);
    expect(fields.version).toBe(3);
    expect([...fields.extensions.keys()]).toEqual(['2.5.29.19', '1.3.6.1.4.1.45724.1.1.4']);
    expect(readDer(fields.extensions.get('1.3.6.1.4.1.45724.1.1.4')!).value).toEqual(aaguid);
    expect(certificateFields(cert(1)).version).toBe(1);
  });

  test('OIDs', () => {
    expect(oidText(Uint8Array.from([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]))).toBe(
      '1.2.840.10045.4.3.2',
    );
    expect(oidText(Uint8Array.from([0x55, 0x1d, 0x13]))).toBe('2.5.29.19');
  });
});

describe('x5c chains', () => {
  const T = Date.UTC(2030, 0, 1);
  const attest = (chain: 'leaf' | 'leaf+root' | 'leaf+unrelated') => {
    const a = new SoftAuthenticator();
    const r = a.create(
      { rp: { id: 'example.test' }, user: { id: 'AAAA' }, challenge: 'abc' },
      { origin: 'https://example.test', attestation: 'packed-x5c', certificate: { chain }, now: T },
    );
    const att = parseAttestationObject(Buffer.from(r.attestationObject, 'base64url'));
    const data = parseAuthenticatorData(att.authData);
    const hash = Buffer.alloc(32);
    // The soft authenticator signed SHA-256 of its client data: recompute it.
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    hash.set(createHash('sha256').update(Buffer.from(r.clientDataJSON, 'base64url')).digest());
    return () => verifyAttestation(att, hash, data.attested!, new Date(T));
  };

  test('a leaf and the root that signed it verify; a root that did not is refused', () => {
    expect(attest('leaf')()).toBe('basic');
    expect(attest('leaf+root')()).toBe('basic');
    expect(attest('leaf+unrelated')).toThrow(/x5c\[0\] is not signed by x5c\[1\]/);
  });
});
