/**
 * The cryptographic checks of WebAuthn Level 2 that svc performs, each a pure function that
 * throws a `WebAuthnError` saying what failed:
 *
 * - `parseAuthenticatorData` (§6.1): rpIdHash, flags, signCount, attested credential data (AAGUID,
 *   credential id, COSE key) and extensions, with every length checked;
 * - `coseToPublicKey` (RFC 9053 / §6.5.1.1): an EC2 P-256 ES256 COSE key to a node:crypto
 *   KeyObject (the point is checked to lie on the curve by the import);
 * - `parseClientData` (§5.8.1): the JSON the browser signed;
 * - `verifyAttestation` (§8.2, §8.7): formats `none` and `packed` (self attestation and x5c);
 * - `verifyEs256`: an ASN.1 DER ECDSA P-256 SHA-256 signature.
 *
 * ES256 (COSE alg -7) is the only algorithm. Reference read: SimpleWebAuthn's server package.
 */
import { createHash, createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { CborError, decodeCbor, decodeCborPrefix, type CborMap, type CborValue } from './cbor';
import { certificateFields, DerError, readDer } from './der';

/** A verification failure; `message` says which check failed (safe to show the caller). */
export class WebAuthnError extends Error {
  override readonly name = 'WebAuthnError';
}

/** COSE algorithm identifier of ES256. */
export const COSE_ALG_ES256 = -7;

export interface AuthenticatorFlags {
  /** User present. */ readonly up: boolean;
  /** User verified. */ readonly uv: boolean;
  /** Backup eligible. */ readonly be: boolean;
  /** Backed up. */ readonly bs: boolean;
  /** Attested credential data included. */ readonly at: boolean;
  /** Extension data included. */ readonly ed: boolean;
}

export interface AttestedCredential {
  readonly aaguid: Uint8Array;
  readonly credentialId: Uint8Array;
  /** The COSE_Key bytes as the authenticator wrote them. */
  readonly publicKeyCose: Uint8Array;
  readonly publicKey: KeyObject;
}

export interface AuthenticatorData {
  readonly rpIdHash: Uint8Array;
  readonly flags: AuthenticatorFlags;
  readonly signCount: number;
  readonly attested?: AttestedCredential;
  readonly extensions?: CborMap;
}

/** Largest credential id WebAuthn allows (§5.8.3: at most 1023 bytes). */
export const MAX_CREDENTIAL_ID_BYTES = 1023;

/** §6.1 authenticator data. */
export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  if (bytes.length < 37)
    throw new WebAuthnError(
      `authenticator data is ${bytes.length} bytes; at least 37 are required`,
    );
  const rpIdHash = bytes.slice(0, 32);
  const f = bytes[32] as number;
  const flags: AuthenticatorFlags = {
    up: !!(f & 0x01),
    uv: !!(f & 0x04),
    be: !!(f & 0x08),
    bs: !!(f & 0x10),
    at: !!(f & 0x40),
    ed: !!(f & 0x80),
  };
  if (flags.bs && !flags.be)
    throw new WebAuthnError(
      'authenticator data flags are inconsistent (backed up but not backup eligible)',
    );
  const signCount = new DataView(bytes.buffer, bytes.byteOffset + 33, 4).getUint32(0);
  let pos = 37;
  let attested: AttestedCredential | undefined;
  if (flags.at) {
    if (bytes.length < pos + 18) throw new WebAuthnError('attested credential data is truncated');
    const aaguid = bytes.slice(pos, pos + 16);
    const idLength = ((bytes[pos + 16] as number) << 8) | (bytes[pos + 17] as number);
    pos += 18;
    if (idLength === 0 || idLength > MAX_CREDENTIAL_ID_BYTES)
      throw new WebAuthnError(`credential id length ${idLength} is out of range`);
    if (bytes.length < pos + idLength) throw new WebAuthnError('credential id is truncated');
    const credentialId = bytes.slice(pos, pos + idLength);
    pos += idLength;
    let decoded: { value: CborValue; end: number };
    try {
      decoded = decodeCborPrefix(bytes.subarray(pos));
    } catch (err) {
      throw new WebAuthnError(`credential public key is not valid CBOR: ${(err as Error).message}`);
    }
    const publicKeyCose = bytes.slice(pos, pos + decoded.end);
    pos += decoded.end;
    attested = { aaguid, credentialId, publicKeyCose, publicKey: coseToPublicKey(decoded.value) };
  }
  let extensions: CborMap | undefined;
  if (flags.ed) {
    let decoded: { value: CborValue; end: number };
    try {
      decoded = decodeCborPrefix(bytes.subarray(pos));
    } catch (err) {
      throw new WebAuthnError(`extension data is not valid CBOR: ${(err as Error).message}`);
    }
    if (!(decoded.value instanceof Map))
      throw new WebAuthnError('extension data is not a CBOR map');
    extensions = decoded.value;
    pos += decoded.end;
  }
  if (pos !== bytes.length)
    throw new WebAuthnError(
      `authenticator data has ${bytes.length - pos} unexpected trailing bytes`,
    );
  return {
    rpIdHash,
    flags,
    signCount,
    ...(attested ? { attested } : {}),
    ...(extensions ? { extensions } : {}),
  };
}

/**
 * An EC2 P-256 ES256 COSE key (kty 2, alg -7, crv 1, x and y of 32 bytes) as a KeyObject.
 * Every other key type, curve or algorithm is refused.
 */
export function coseToPublicKey(cose: CborValue): KeyObject {
  if (!(cose instanceof Map)) throw new WebAuthnError('credential public key is not a COSE map');
  const kty = cose.get(1);
  const alg = cose.get(3);
  if (kty !== 2)
    throw new WebAuthnError(`COSE key type ${String(kty)} is not supported (EC2 only)`);
  if (alg !== COSE_ALG_ES256)
    throw new WebAuthnError(`COSE algorithm ${String(alg)} is not supported (ES256, -7, only)`);
  const crv = cose.get(-1);
  const x = cose.get(-2);
  const y = cose.get(-3);
  if (crv !== 1) throw new WebAuthnError(`COSE curve ${String(crv)} is not supported (P-256 only)`);
  if (
    !(x instanceof Uint8Array) ||
    x.length !== 32 ||
    !(y instanceof Uint8Array) ||
    y.length !== 32
  )
    throw new WebAuthnError('COSE EC2 key coordinates must be 32-byte strings');
  try {
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: Buffer.from(x).toString('base64url'),
        y: Buffer.from(y).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    throw new WebAuthnError('COSE EC2 key is not a point on P-256');
  }
}

export interface ClientData {
  readonly type: string;
  /** base64url, as the browser wrote it. */
  readonly challenge: string;
  readonly origin: string;
  readonly crossOrigin?: boolean;
}

/** §5.8.1: the collected client data, decoded and shape-checked. */
export function parseClientData(bytes: Uint8Array): ClientData {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new WebAuthnError('clientDataJSON is not UTF-8 JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new WebAuthnError('clientDataJSON is not a JSON object');
  const { type, challenge, origin, crossOrigin } = value as Record<string, unknown>;
  if (typeof type !== 'string' || typeof challenge !== 'string' || typeof origin !== 'string')
    throw new WebAuthnError('clientDataJSON lacks type, challenge or origin');
  if (crossOrigin !== undefined && typeof crossOrigin !== 'boolean')
    throw new WebAuthnError('clientDataJSON crossOrigin is not a boolean');
  return { type, challenge, origin, ...(crossOrigin !== undefined ? { crossOrigin } : {}) };
}

/** An ASN.1 DER ECDSA signature over SHA-256 of `data`, with a P-256 key. */
export function verifyEs256(key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify('sha256', data, { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

export function sha256(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(data).digest();
}

export interface AttestationObject {
  readonly fmt: string;
  readonly attStmt: CborMap;
  readonly authData: Uint8Array;
}

/** §6.5.4: the attestation object's three members. */
export function parseAttestationObject(bytes: Uint8Array): AttestationObject {
  let value: CborValue;
  try {
    value = decodeCbor(bytes);
  } catch (err) {
    if (err instanceof CborError)
      throw new WebAuthnError(`attestationObject is not valid CBOR: ${err.message}`);
    throw err;
  }
  if (!(value instanceof Map)) throw new WebAuthnError('attestationObject is not a CBOR map');
  const fmt = value.get('fmt');
  const attStmt = value.get('attStmt');
  const authData = value.get('authData');
  if (typeof fmt !== 'string') throw new WebAuthnError('attestationObject.fmt is missing');
  if (!(attStmt instanceof Map)) throw new WebAuthnError('attestationObject.attStmt is not a map');
  if (!(authData instanceof Uint8Array))
    throw new WebAuthnError('attestationObject.authData is not a byte string');
  return { fmt, attStmt, authData };
}

/** The attestation types svc can tell apart. */
export type AttestationType = 'none' | 'self' | 'basic';

/** OID of the FIDO AAGUID certificate extension (§8.2.1). */
const AAGUID_EXTENSION_OID = '1.3.6.1.4.1.45724.1.1.4';

/**
 * §8.2 (packed) and §8.7 (none). `authData` is the raw authenticator data, `clientDataHash`
 * SHA-256 of clientDataJSON, `credential` what the authenticator data attested, `now` the clock
 * (certificate validity). Returns the attestation type; throws `WebAuthnError` otherwise.
 *
 * An x5c chain is checked for its own consistency (each certificate within its validity and
 * signed by the next) and the leaf for §8.2.1's requirements; it is not checked against a trust
 * anchor (svc keeps no attestation metadata), so `basic` says who signed, not that they are
 * trusted.
 */
export function verifyAttestation(
  att: AttestationObject,
  clientDataHash: Uint8Array,
  credential: AttestedCredential,
  now: Date,
): AttestationType {
  if (att.fmt === 'none') {
    if (att.attStmt.size !== 0)
      throw new WebAuthnError('attestation "none" must have an empty attStmt');
    return 'none';
  }
  if (att.fmt !== 'packed')
    throw new WebAuthnError(
      `attestation format ${JSON.stringify(att.fmt)} is not supported (none and packed only)`,
    );
  const alg = att.attStmt.get('alg');
  const sig = att.attStmt.get('sig');
  const x5c = att.attStmt.get('x5c');
  if (att.attStmt.has('ecdaaKeyId')) throw new WebAuthnError('ECDAA attestation is not supported');
  for (const key of att.attStmt.keys())
    if (key !== 'alg' && key !== 'sig' && key !== 'x5c')
      throw new WebAuthnError(`packed attStmt has an unknown member ${JSON.stringify(key)}`);
  if (alg !== COSE_ALG_ES256)
    throw new WebAuthnError(
      `packed attestation algorithm ${String(alg)} is not supported (ES256 only)`,
    );
  if (!(sig instanceof Uint8Array))
    throw new WebAuthnError('packed attStmt.sig is not a byte string');
  const signed = Buffer.concat([att.authData, clientDataHash]);

  if (x5c === undefined) {
    // Self attestation: signed by the credential key itself, with the credential's algorithm.
    if (!verifyEs256(credential.publicKey, signed, sig))
      throw new WebAuthnError('packed self attestation signature is invalid');
    return 'self';
  }
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > 8)
    throw new WebAuthnError('packed attStmt.x5c must be an array of 1 to 8 certificates');
  const certs = x5c.map((der, i) => {
    if (!(der instanceof Uint8Array)) throw new WebAuthnError(`x5c[${i}] is not a byte string`);
    try {
      return { der, cert: new X509Certificate(der) };
    } catch {
      throw new WebAuthnError(`x5c[${i}] is not an X.509 certificate`);
    }
  });
  const t = now.getTime();
  certs.forEach(({ cert }, i) => {
    if (Date.parse(cert.validFrom) > t || Date.parse(cert.validTo) < t)
      throw new WebAuthnError(`x5c[${i}] is not valid at this time`);
    const issuer = certs[i + 1];
    if (issuer && !cert.verify(issuer.cert.publicKey))
      throw new WebAuthnError(`x5c[${i}] is not signed by x5c[${i + 1}]`);
  });
  const leaf = certs[0] as { der: Uint8Array; cert: X509Certificate };
  if (!verifyEs256(leaf.cert.publicKey, signed, sig))
    throw new WebAuthnError(
      'packed attestation signature does not verify with the x5c leaf certificate',
    );
  checkAttestationCertificate(leaf.der, leaf.cert, credential.aaguid);
  return 'basic';
}

/** §8.2.1 packed attestation statement certificate requirements. */
function checkAttestationCertificate(
  der: Uint8Array,
  cert: X509Certificate,
  aaguid: Uint8Array,
): void {
  let fields: ReturnType<typeof certificateFields>;
  try {
    fields = certificateFields(der);
  } catch (err) {
    if (err instanceof DerError) throw new WebAuthnError(`attestation certificate: ${err.message}`);
    throw err;
  }
  if (fields.version !== 3)
    throw new WebAuthnError('attestation certificate must be X.509 version 3');
  if (cert.ca)
    throw new WebAuthnError(
      'attestation certificate must not be a CA (basic constraints CA false)',
    );
  const subject = parseSubject(cert.subject);
  for (const key of ['C', 'O', 'OU', 'CN'])
    if (!subject.get(key)) throw new WebAuthnError(`attestation certificate subject lacks ${key}`);
  if (subject.get('OU') !== 'Authenticator Attestation')
    throw new WebAuthnError(
      'attestation certificate subject OU must be "Authenticator Attestation"',
    );
  const ext = fields.extensions.get(AAGUID_EXTENSION_OID);
  if (ext) {
    // The extension's value is an OCTET STRING holding the 16-byte AAGUID.
    let inner: Uint8Array;
    try {
      const node = readDer(ext);
      if (node.tag !== 0x04 || node.end !== ext.length) throw new DerError('not an OCTET STRING');
      inner = node.value;
    } catch {
      throw new WebAuthnError('attestation certificate AAGUID extension is malformed');
    }
    if (!Buffer.from(inner).equals(Buffer.from(aaguid)))
      throw new WebAuthnError(
        'attestation certificate AAGUID does not match the authenticator data',
      );
  }
}

/** `C=US\nO=...` (node's X509Certificate.subject) as a map; a repeated key keeps its first value. */
function parseSubject(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && !out.has(line.slice(0, eq))) out.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return out;
}
