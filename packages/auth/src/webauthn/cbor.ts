/**
 * A strict CBOR (RFC 8949) decoder for the subset WebAuthn carries: unsigned and negative
 * integers, byte and text strings, arrays, maps and the simple values false, true and null. What
 * an authenticator never sends is refused rather than guessed at: tags, floats, undefined,
 * indefinite lengths, integers beyond 2^53 - 1, non-shortest length encodings, duplicate map keys,
 * invalid UTF-8, nesting deeper than `MAX_DEPTH`, and lengths past the end of the input. Every
 * refusal is a `CborError` naming the offset.
 *
 * `decodeCborPrefix` decodes one item and says where it ended (authenticatorData holds a COSE key
 * followed by extensions); `decodeCbor` demands the item fill the input exactly.
 */

/** A decoded CBOR value. Maps keep their keys as decoded (numbers or strings). */
export type CborValue = number | string | Uint8Array | boolean | null | CborValue[] | CborMap;
export type CborMap = Map<number | string, CborValue>;

export class CborError extends Error {
  override readonly name = 'CborError';
}

/** Deeper nesting than this is refused (WebAuthn structures are at most a few levels deep). */
export const MAX_DEPTH = 16;
/** At most this many items in one array or map (bounds the work of a hostile header). */
export const MAX_ITEMS = 4096;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes exactly one CBOR item that fills `bytes`. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const { value, end } = decodeCborPrefix(bytes);
  if (end !== bytes.length)
    throw new CborError(`${bytes.length - end} unexpected bytes after the CBOR item at ${end}`);
  return value;
}

/** Decodes the CBOR item that starts `bytes`; `end` is the offset just past it. */
export function decodeCborPrefix(bytes: Uint8Array): { value: CborValue; end: number } {
  const reader = new Reader(bytes);
  const value = reader.item(0);
  return { value, end: reader.pos };
}

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  private need(n: number): void {
    if (n > this.bytes.length - this.pos)
      throw new CborError(`truncated CBOR: ${n} bytes needed at offset ${this.pos}`);
  }

  private byte(): number {
    this.need(1);
    return this.bytes[this.pos++] as number;
  }

  /** The argument of a head (RFC 8949 §3): shortest form only, at most 2^53 - 1. */
  private argument(info: number, at: number): number {
    if (info < 24) return info;
    let n: number;
    let min: number;
    if (info === 24) {
      n = this.byte();
      min = 24;
    } else if (info === 25) {
      this.need(2);
      n = ((this.bytes[this.pos] as number) << 8) | (this.bytes[this.pos + 1] as number);
      this.pos += 2;
      min = 0x100;
    } else if (info === 26) {
      this.need(4);
      const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 4);
      n = v.getUint32(0);
      this.pos += 4;
      min = 0x10000;
    } else if (info === 27) {
      this.need(8);
      const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8);
      const big = v.getBigUint64(0);
      this.pos += 8;
      if (big > BigInt(Number.MAX_SAFE_INTEGER))
        throw new CborError(`integer at offset ${at} exceeds 2^53 - 1`);
      n = Number(big);
      min = 0x1_0000_0000;
    } else if (info === 31) {
      throw new CborError(`indefinite length at offset ${at} is not supported`);
    } else {
      throw new CborError(`reserved additional information ${info} at offset ${at}`);
    }
    if (n < min) throw new CborError(`non-shortest encoding of ${n} at offset ${at}`);
    return n;
  }

  item(depth: number): CborValue {
    if (depth > MAX_DEPTH) throw new CborError(`CBOR nested deeper than ${MAX_DEPTH} levels`);
    const at = this.pos;
    const head = this.byte();
    const major = head >> 5;
    const info = head & 0x1f;
    switch (major) {
      case 0:
        return this.argument(info, at);
      case 1: {
        // -1 - n; n = 2^53 - 1 would give -(2^53), past the safe integers: refused too.
        const n = this.argument(info, at);
        if (n >= Number.MAX_SAFE_INTEGER)
          throw new CborError(`negative integer at offset ${at} is below -(2^53 - 1)`);
        return -1 - n;
      }
      case 2: {
        const n = this.argument(info, at);
        this.need(n);
        const out = this.bytes.slice(this.pos, this.pos + n);
        this.pos += n;
        return out;
      }
      case 3: {
        const n = this.argument(info, at);
        this.need(n);
        let text: string;
        try {
          text = utf8.decode(this.bytes.subarray(this.pos, this.pos + n));
        } catch {
          throw new CborError(`invalid UTF-8 in the text string at offset ${at}`);
        }
        this.pos += n;
        return text;
      }
      case 4: {
        const n = this.argument(info, at);
        if (n > MAX_ITEMS) throw new CborError(`array of ${n} items at offset ${at} is too long`);
        // Each item takes at least one byte: a length past the input is refused before looping.
        this.need(n);
        const out: CborValue[] = [];
        for (let i = 0; i < n; i++) out.push(this.item(depth + 1));
        return out;
      }
      case 5: {
        const n = this.argument(info, at);
        if (n > MAX_ITEMS) throw new CborError(`map of ${n} entries at offset ${at} is too long`);
        this.need(n * 2);
        const out: CborMap = new Map();
        for (let i = 0; i < n; i++) {
          const keyAt = this.pos;
          const key = this.item(depth + 1);
          if (typeof key !== 'number' && typeof key !== 'string')
            throw new CborError(`map key at offset ${keyAt} is not an integer or text string`);
          if (out.has(key))
            throw new CborError(`duplicate map key ${JSON.stringify(key)} at offset ${keyAt}`);
          out.set(key, this.item(depth + 1));
        }
        return out;
      }
      case 6:
        throw new CborError(`tag at offset ${at} is not supported`);
      default: {
        // Major type 7: only false (20), true (21) and null (22).
        if (info === 20) return false;
        if (info === 21) return true;
        if (info === 22) return null;
        throw new CborError(
          `simple value or float (0x${head.toString(16)}) at offset ${at} is not supported`,
        );
      }
    }
  }
}

/**
 * An encoder for the same subset, for tests and the software authenticator: integers, byte and
 * text strings, arrays, maps (keys in insertion order), booleans and null, shortest form.
 */
export function encodeCbor(value: CborValue): Uint8Array {
  const parts: number[] = [];
  const head = (major: number, n: number) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new CborError(`cannot encode length ${n}`);
    if (n < 24) parts.push((major << 5) | n);
    else if (n < 0x100) parts.push((major << 5) | 24, n);
    else if (n < 0x10000) parts.push((major << 5) | 25, n >> 8, n & 0xff);
    else if (n < 0x1_0000_0000)
      parts.push(
        (major << 5) | 26,
        (n >>> 24) & 0xff,
        (n >>> 16) & 0xff,
        (n >>> 8) & 0xff,
        n & 0xff,
      );
    else {
      const big = BigInt(n);
      parts.push((major << 5) | 27);
      for (let i = 7; i >= 0; i--) parts.push(Number((big >> BigInt(i * 8)) & 0xffn));
    }
  };
  const put = (v: CborValue) => {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new CborError(`cannot encode ${v}`);
      if (v >= 0) head(0, v);
      else head(1, -1 - v);
    } else if (typeof v === 'string') {
      const b = Buffer.from(v, 'utf8');
      head(3, b.length);
      for (const x of b) parts.push(x);
    } else if (v instanceof Uint8Array) {
      head(2, v.length);
      for (const x of v) parts.push(x);
    } else if (v === false) parts.push(0xf4);
    else if (v === true) parts.push(0xf5);
    else if (v === null) parts.push(0xf6);
    else if (Array.isArray(v)) {
      head(4, v.length);
      for (const x of v) put(x);
    } else {
      head(5, v.size);
      for (const [k, x] of v) {
        put(k);
        put(x);
      }
    }
  };
  put(value);
  return Uint8Array.from(parts);
}
