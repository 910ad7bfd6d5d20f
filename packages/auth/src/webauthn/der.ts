/**
 * Just enough DER (X.690) to read what node:crypto's X509Certificate does not expose and
 * WebAuthn §8.2.1 asks about: the certificate's version and the value of one extension by OID.
 * Strict and bounded: definite lengths only, nothing past the end of the input.
 */

export interface DerNode {
  readonly tag: number;
  /** The content octets. */
  readonly value: Uint8Array;
  /** Offset just past the whole TLV in the input it was read from. */
  readonly end: number;
}

export class DerError extends Error {
  override readonly name = 'DerError';
}

/** Reads one TLV at `offset` (single-byte tags only, which is all a certificate needs). */
export function readDer(bytes: Uint8Array, offset = 0): DerNode {
  if (offset + 2 > bytes.length) throw new DerError('truncated DER');
  const tag = bytes[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte DER tags are not supported');
  let len = bytes[offset + 1] as number;
  let pos = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError('unsupported DER length');
    if (pos + n > bytes.length) throw new DerError('truncated DER length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (bytes[pos + i] as number);
    pos += n;
  }
  if (pos + len > bytes.length) throw new DerError('DER value runs past the end');
  return { tag, value: bytes.subarray(pos, pos + len), end: pos + len };
}

/** The TLVs inside a constructed value, in order. */
export function derChildren(value: Uint8Array): DerNode[] {
  const out: DerNode[] = [];
  let pos = 0;
  while (pos < value.length) {
    if (out.length > 1024) throw new DerError('too many DER children');
    const node = readDer(value, pos);
    out.push(node);
    pos = node.end;
  }
  return out;
}

/** Dotted-decimal text of an OBJECT IDENTIFIER's content octets. */
export function oidText(value: Uint8Array): string {
  if (value.length === 0) throw new DerError('empty OID');
  const first = value[0] as number;
  const parts = [
    Math.min(2, Math.floor(first / 40)),
    first - Math.min(2, Math.floor(first / 40)) * 40,
  ];
  let n = 0;
  for (let i = 1; i < value.length; i++) {
    const b = value[i] as number;
    n = n * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

export interface CertificateFields {
  /** X.509 version as written (v1 = 1, v3 = 3). */
  readonly version: number;
  /** Extension OID → the content octets of its extnValue OCTET STRING. */
  readonly extensions: ReadonlyMap<string, Uint8Array>;
}

/** The version and the extensions of a DER certificate. */
export function certificateFields(der: Uint8Array): CertificateFields {
  const cert = readDer(der);
  if (cert.tag !== 0x30) throw new DerError('certificate is not a SEQUENCE');
  const [tbs] = derChildren(cert.value);
  if (tbs?.tag !== 0x30) throw new DerError('tbsCertificate is not a SEQUENCE');
  const fields = derChildren(tbs.value);
  let version = 1;
  const extensions = new Map<string, Uint8Array>();
  for (const f of fields) {
    if (f.tag === 0xa0) {
      // [0] EXPLICIT Version ::= INTEGER { v1(0), v2(1), v3(2) }
      const v = readDer(f.value);
      if (v.tag !== 0x02 || v.value.length !== 1) throw new DerError('malformed version');
      version = (v.value[0] as number) + 1;
    } else if (f.tag === 0xa3) {
      // [3] EXPLICIT Extensions ::= SEQUENCE OF Extension
      const seq = readDer(f.value);
      if (seq.tag !== 0x30) throw new DerError('extensions are not a SEQUENCE');
      for (const ext of derChildren(seq.value)) {
        const parts = derChildren(ext.value);
        const oid = parts[0];
        const octets = parts[parts.length - 1];
        if (oid?.tag !== 0x06 || octets?.tag !== 0x04) throw new DerError('malformed extension');
        extensions.set(oidText(oid.value), octets.value);
      }
    }
  }
  return { version, extensions };
}
