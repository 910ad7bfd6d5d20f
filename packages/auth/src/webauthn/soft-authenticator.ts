/**
 * A software WebAuthn authenticator for tests (exported from `@svc/auth/testing`): P-256 keys from
 * node:crypto, authenticator data, attestation objects in the formats `none` and `packed` (self
 * attestation, or x5c with a leaf certificate this module issues itself from a throwaway CA), and
 * assertions. Every field can be bent by an option, so tests can make each server check fail.
 * Not for production use: its keys live in memory and it verifies no user.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCbor, type CborMap, type CborValue } from './cbor';

const b64u = (b: Uint8Array | string) =>
  (typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b)).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export interface SoftCredential {
  readonly id: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The user handle given at creation (base64url), returned by discoverable assertions. */
  readonly userHandle: string;
  readonly rpId: string;
  counter: number;
}

export type SoftAttestation = 'none' | 'packed-self' | 'packed-x5c';

export interface CertificateOptions {
  /** @default 3 */ readonly version?: 1 | 3;
  /** @default false */ readonly ca?: boolean;
  /** @default 'Authenticator Attestation' */ readonly ou?: string;
  /** The AAGUID extension: `true` (the authenticator's), a 16-byte value, or false (none). @default true */
  readonly aaguidExtension?: boolean | Uint8Array;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /**
   * What x5c carries after the leaf: nothing, the root that signed it, or a root that did not.
   * @default 'leaf'
   */
  readonly chain?: 'leaf' | 'leaf+root' | 'leaf+unrelated';
}

export interface CreateOptions {
  /** The page origin the "browser" reports. */
  readonly origin: string;
  /** @default 'none' */
  readonly attestation?: SoftAttestation;
  /** @default true */ readonly uv?: boolean;
  /** @default true */ readonly up?: boolean;
  /** Initial signature counter. @default 0 */
  readonly counter?: number;
  /** @default 'webauthn.create' */ readonly type?: string;
  /** Replaces the challenge the client data carries. */
  readonly challenge?: string;
  /** Replaces the rpId whose hash the authenticator data carries. */
  readonly rpId?: string;
  readonly aaguid?: Uint8Array;
  /** Attestation format written instead of the real one (e.g. 'tpm'). */
  readonly fmt?: string;
  /** Bend the attestation statement (e.g. a wrong alg, a bad signature). */
  readonly attStmt?: (stmt: CborMap) => CborMap;
  /** Bend the COSE key (e.g. another algorithm). */
  readonly coseKey?: (key: CborMap) => CborMap;
  readonly certificate?: CertificateOptions;
  /** Clock for the certificate's validity. @default Date.now */
  readonly now?: number;
  readonly crossOrigin?: boolean;
  /** The credential id to use instead of 32 random bytes. */
  readonly credentialId?: Uint8Array;
}

export interface GetOptions {
  readonly origin: string;
  /** @default true */ readonly uv?: boolean;
  /** @default true */ readonly up?: boolean;
  /** The counter to write; by default the credential's, incremented. */
  readonly counter?: number;
  /** @default 'webauthn.get' */ readonly type?: string;
  readonly challenge?: string;
  readonly rpId?: string;
  /** Sign with another key (a forged assertion). */
  readonly signWith?: KeyObject;
  /** Flip a byte of the signature. */
  readonly corruptSignature?: boolean;
  /** Include the user handle (discoverable). @default true */
  readonly userHandle?: boolean;
}

export interface RegistrationResponse {
  readonly credentialId: string;
  readonly clientDataJSON: string;
  readonly attestationObject: string;
}

export interface AssertionResponse {
  readonly credentialId: string;
  readonly clientDataJSON: string;
  readonly authenticatorData: string;
  readonly signature: string;
  readonly userHandle?: string;
}

interface CreationOptionsJSON {
  readonly rp: { readonly id: string };
  readonly user: { readonly id: string };
  readonly challenge: string;
}
interface RequestOptionsJSON {
  readonly rpId: string;
  readonly challenge: string;
}

export class SoftAuthenticator {
  readonly aaguid: Uint8Array;
  readonly credentials = new Map<string, SoftCredential>();

  constructor(aaguid: Uint8Array = randomBytes(16)) {
    this.aaguid = aaguid;
  }

  /** navigator.credentials.create: a new credential for `options` (the JSON register/begin gave). */
  create(
    options: CreationOptionsJSON,
    opts: CreateOptions,
  ): RegistrationResponse & { credential: SoftCredential } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = Buffer.from(opts.credentialId ?? randomBytes(32));
    const credential: SoftCredential = {
      id,
      privateKey,
      publicKey,
      userHandle: options.user.id,
      rpId: options.rp.id,
      counter: opts.counter ?? 0,
    };
    this.credentials.set(id.toString('base64url'), credential);
    const clientDataJSON = clientData(
      opts.type ?? 'webauthn.create',
      opts.challenge ?? options.challenge,
      opts.origin,
      opts.crossOrigin,
    );
    const aaguid = opts.aaguid ?? this.aaguid;
    let cose: CborMap = coseKeyOf(publicKey);
    if (opts.coseKey) cose = opts.coseKey(cose);
    const attested = Buffer.concat([
      aaguid,
      Buffer.from([id.length >> 8, id.length & 0xff]),
      id,
      encodeCbor(cose),
    ]);
    const authData = authenticatorData(opts.rpId ?? options.rp.id, {
      up: opts.up ?? true,
      uv: opts.uv ?? true,
      at: true,
      counter: credential.counter,
      rest: attested,
    });
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const attestation = opts.attestation ?? 'none';
    let stmt: CborMap = new Map();
    if (attestation === 'packed-self') {
      stmt = new Map<string | number, CborValue>([
        ['alg', -7],
        ['sig', sign('sha256', signed, privateKey)],
      ]);
    } else if (attestation === 'packed-x5c') {
      const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const root = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const certOpts = opts.certificate ?? {};
      const now = opts.now ?? Date.now();
      const ext = certOpts.aaguidExtension ?? true;
      const leafDer = issueCertificate({
        subject: {
          C: 'SE',
          O: 'svc test authenticators',
          OU: certOpts.ou ?? 'Authenticator Attestation',
          CN: 'svc soft authenticator',
        },
        issuer: { C: 'SE', O: 'svc test authenticators', CN: 'svc test attestation root' },
        publicKey: leaf.publicKey,
        signingKey: root.privateKey,
        version: certOpts.version ?? 3,
        ca: certOpts.ca ?? false,
        aaguid: ext === true ? aaguid : ext === false ? undefined : ext,
        notBefore: certOpts.notBefore ?? new Date(now - 86_400_000),
        notAfter: certOpts.notAfter ?? new Date(now + 3650 * 86_400_000),
      });
      stmt = new Map<string | number, CborValue>([
        ['alg', -7],
        ['sig', sign('sha256', signed, leaf.privateKey)],
        ['x5c', [leafDer, ...chainAfterLeaf(certOpts.chain ?? 'leaf', root, now)]],
      ]);
    }
    if (opts.attStmt) stmt = opts.attStmt(stmt);
    const fmt = opts.fmt ?? (attestation === 'none' ? 'none' : 'packed');
    const attestationObject = encodeCbor(
      new Map<string | number, CborValue>([
        ['fmt', fmt],
        ['attStmt', stmt],
        ['authData', authData],
      ]),
    );
    return {
      credential,
      credentialId: id.toString('base64url'),
      clientDataJSON: b64u(clientDataJSON),
      attestationObject: b64u(attestationObject),
    };
  }

  /** navigator.credentials.get with `credentialId`, or the first credential for the rpId (discoverable). */
  get(options: RequestOptionsJSON, opts: GetOptions, credentialId?: string): AssertionResponse {
    const credential = credentialId
      ? this.credentials.get(credentialId)
      : [...this.credentials.values()].find((c) => c.rpId === options.rpId);
    if (!credential) throw new Error('the soft authenticator holds no such credential');
    const counter = opts.counter ?? (credential.counter === 0 ? 0 : credential.counter + 1);
    if (opts.counter === undefined && credential.counter !== 0) credential.counter = counter;
    const clientDataJSON = clientData(
      opts.type ?? 'webauthn.get',
      opts.challenge ?? options.challenge,
      opts.origin,
    );
    const authData = authenticatorData(opts.rpId ?? options.rpId, {
      up: opts.up ?? true,
      uv: opts.uv ?? true,
      at: false,
      counter,
    });
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      opts.signWith ?? credential.privateKey,
    );
    if (opts.corruptSignature)
      signature.writeUInt8((signature.at(-1) as number) ^ 0x01, signature.length - 1);
    return {
      credentialId: credential.id.toString('base64url'),
      clientDataJSON: b64u(clientDataJSON),
      authenticatorData: b64u(authData),
      signature: b64u(signature),
      ...(opts.userHandle === false ? {} : { userHandle: credential.userHandle }),
    };
  }
}

/** The certificates x5c carries after the leaf (`CertificateOptions.chain`). */
function chainAfterLeaf(
  chain: 'leaf' | 'leaf+root' | 'leaf+unrelated',
  root: { publicKey: KeyObject; privateKey: KeyObject },
  now: number,
): Buffer[] {
  if (chain === 'leaf') return [];
  const key = chain === 'leaf+root' ? root : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = { C: 'SE', O: 'svc test authenticators', CN: 'svc test attestation root' };
  return [
    issueCertificate({
      subject: name,
      issuer: name,
      publicKey: key.publicKey,
      signingKey: key.privateKey,
      version: 3,
      ca: true,
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 3650 * 86_400_000),
    }),
  ];
}

function clientData(
  type: string,
  challenge: string,
  origin: string,
  crossOrigin?: boolean,
): Buffer {
  return Buffer.from(
    JSON.stringify({
      type,
      challenge,
      origin,
      ...(crossOrigin !== undefined ? { crossOrigin } : {}),
    }),
    'utf8',
  );
}

function authenticatorData(
  rpId: string,
  f: { up: boolean; uv: boolean; at: boolean; counter: number; rest?: Buffer },
): Buffer {
  const flags = (f.up ? 0x01 : 0) | (f.uv ? 0x04 : 0) | (f.at ? 0x40 : 0);
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(f.counter >>> 0);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, f.rest ?? Buffer.alloc(0)]);
}

/** The COSE_Key of an EC P-256 public key (kty 2, alg -7, crv 1, x, y). */
export function coseKeyOf(publicKey: KeyObject): CborMap {
  const jwk = publicKey.export({ format: 'jwk' });
  return new Map<string | number, CborValue>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x as string, 'base64url')],
    [-3, Buffer.from(jwk.y as string, 'base64url')],
  ]);
}

// --- a minimal X.509 issuer (DER), enough for attestation certificates -------------------------

function tlv(tag: number, content: Uint8Array): Buffer {
  const n = content.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else if (n < 0x100) len = [0x81, n];
  else if (n < 0x10000) len = [0x82, n >> 8, n & 0xff];
  else len = [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), content]);
}
const seq = (...items: Uint8Array[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Uint8Array[]) => tlv(0x31, Buffer.concat(items));
function integer(bytes: Uint8Array): Buffer {
  let b = Buffer.from(bytes);
  while (b.length > 1 && b[0] === 0 && !((b[1] as number) & 0x80)) b = b.subarray(1);
  if ((b[0] as number) & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}
function oid(text: string): Buffer {
  const parts = text.split('.').map(Number);
  const out = [(parts[0] as number) * 40 + (parts[1] as number)];
  for (const p of parts.slice(2)) {
    const stack = [p & 0x7f];
    let v = Math.floor(p / 128);
    while (v > 0) {
      stack.unshift((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(...stack);
  }
  return tlv(0x06, Buffer.from(out));
}
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const y = d.getUTCFullYear();
  return y >= 1950 && y < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}
const NAME_OIDS: Record<string, string> = {
  C: '2.5.4.6',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
};
function name(parts: Record<string, string>): Buffer {
  return seq(
    ...Object.entries(parts).map(([k, v]) =>
      set(seq(oid(NAME_OIDS[k] as string), tlv(k === 'C' ? 0x13 : 0x0c, Buffer.from(v, 'utf8')))),
    ),
  );
}

export interface IssueCertificateOptions {
  readonly subject: Record<string, string>;
  readonly issuer: Record<string, string>;
  readonly publicKey: KeyObject;
  readonly signingKey: KeyObject;
  readonly version: 1 | 3;
  readonly ca: boolean;
  readonly aaguid?: Uint8Array | undefined;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** A DER X.509 certificate signed with ECDSA P-256 SHA-256. */
export function issueCertificate(o: IssueCertificateOptions): Buffer {
  const alg = seq(oid('1.2.840.10045.4.3.2'));
  const extensions: Buffer[] = [
    seq(
      oid('2.5.29.19'),
      tlv(0x01, Buffer.from([0xff])),
      tlv(0x04, o.ca ? seq(tlv(0x01, Buffer.from([0xff]))) : seq()),
    ),
  ];
  if (o.aaguid)
    extensions.push(seq(oid('1.3.6.1.4.1.45724.1.1.4'), tlv(0x04, tlv(0x04, o.aaguid))));
  const tbs = seq(
    ...(o.version === 3 ? [tlv(0xa0, integer(Buffer.from([2])))] : []),
    integer(randomBytes(8)),
    alg,
    name(o.issuer),
    seq(time(o.notBefore), time(o.notAfter)),
    name(o.subject),
    o.publicKey.export({ format: 'der', type: 'spki' }),
    ...(o.version === 3 ? [tlv(0xa3, seq(...extensions))] : []),
  );
  const signature = sign('sha256', tbs, o.signingKey);
  return seq(tbs, alg, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
}
