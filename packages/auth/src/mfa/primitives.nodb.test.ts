import { randomBytes } from 'node:crypto';
import {
  RECOVERY_CODE_ALPHABET,
  generateRecoveryCode,
  generateRecoveryCodes,
  hashRecoveryCode,
  normaliseRecoveryCode,
} from './recovery-codes';
import { createSecretBox } from './secret-box';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  normaliseTotpCode,
  otpauthUri,
  timeStep,
  totp,
} from './totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890".
const SEED = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP and TOTP', () => {
  test.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('RFC 6238 Appendix B, SHA-1, T = %i s → %s', (seconds, expected) => {
    expect(hotp(SEED, timeStep(seconds * 1000), 8, 'sha1')).toBe(expected);
    // The 6-digit code is the same number modulo 10^6.
    expect(totp(SEED, seconds * 1000)).toBe(expected.slice(2));
  });

  test('RFC 4226 Appendix D, HOTP values for counters 0..9', () => {
    expect(Array.from({ length: 10 }, (_, i) => hotp(SEED, i))).toEqual([
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ]);
  });

  test('the window is one step either side; a step at or below the last used one is refused', () => {
    const t = 1111111111 * 1000;
    const step = timeStep(t);
    for (const d of [-1, 0, 1])
      expect(matchTotp(SEED, hotp(SEED, step + d), t, null)).toBe(step + d);
    for (const d of [-2, 2]) expect(matchTotp(SEED, hotp(SEED, step + d), t, null)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step), t, step)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step + 1), t, step)).toBe(step + 1);
    expect(matchTotp(SEED, '000000', t, null)).toBeNull();
  });

  test('codes as typed: spaces forgiven, anything but 6 digits refused', () => {
    expect(normaliseTotpCode(' 123 456 ')).toBe('123456');
    for (const bad of ['12345', '1234567', '12a456', '', '１２３４５６'])
      expect(normaliseTotpCode(bad)).toBeNull();
  });
});

describe('base32 and the key URI', () => {
  test('RFC 4648 section 10 vectors (unpadded) and round trips', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded)?.toString()).toBe(plain);
    }
    expect(base32Encode(SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(i);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Decode('mzxw6===')?.toString()).toBe('foo');
    expect(base32Decode('MZ1W')).toBeNull();
  });

  test('otpauth URI: issuer and account encoded, the spec parameters', () => {
    expect(otpauthUri('Acme & Co', 'ada+x@example.com', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Acme%20%26%20Co:ada%2Bx%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20%26%20Co&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('secret box', () => {
  const box = createSecretBox('a-server-secret-of-at-least-32-characters!!');
  test('seals with a fresh IV each time and opens only for the same user and key', () => {
    const secret = randomBytes(20);
    const a = box.seal(secret, 'user-1');
    const b = box.seal(secret, 'user-1');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain(base32Encode(secret));
    expect(box.open(a, 'user-1')).toEqual(secret);
    expect(box.open(a, 'user-2')).toBeNull();
    expect(
      createSecretBox('another-server-secret-of-32-characters!!!').open(a, 'user-1'),
    ).toBeNull();
    // One character of the tag changed for another (the one it replaces decides which, so the
    // text always differs: testing the last character instead left it unchanged 1 time in 64).
    const tampered = `${a.slice(0, -2)}${a.at(-2) === 'A' ? 'B' : 'A'}${a.slice(-1)}`;
    expect(tampered).not.toBe(a);
    expect(box.open(tampered, 'user-1')).toBeNull();
    expect(box.open('v1.', 'user-1')).toBeNull();
    expect(box.open('plain', 'user-1')).toBeNull();
  });
});

describe('recovery codes', () => {
  test('format XXXXX-XXXXX over the 30-character alphabet; 8 distinct per batch', () => {
    expect(RECOVERY_CODE_ALPHABET).toHaveLength(30);
    expect(RECOVERY_CODE_ALPHABET).not.toMatch(/[01ILOU]/);
    const codes = generateRecoveryCodes(randomBytes);
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    for (const c of codes)
      expect(c).toMatch(/^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{5}-[ABCDEFGHJKMNPQRSTVWXYZ2-9]{5}$/);
  });

  test('rejection sampling: bytes 240..255 are drawn again, so every character is equally likely', () => {
    // A source that offers only biased bytes first, then 0..29 once each: the code uses the latter.
    let calls = 0;
    const source = (n: number) => {
      calls++;
      return Buffer.from(
        Array.from({ length: n }, (_, i) => (calls === 1 ? 240 + (i % 16) : (i * 7) % 30)),
      );
    };
    const code = generateRecoveryCode(source);
    expect(calls).toBe(2);
    expect(code.replace('-', '')).toBe(
      Array.from({ length: 10 }, (_, i) => RECOVERY_CODE_ALPHABET[(i * 7) % 30]).join(''),
    );
    // Over many codes every character turns up near 1/30 of the time.
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++)
      for (const ch of generateRecoveryCode(randomBytes).replace('-', ''))
        counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(30);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });

  test('a random source that never yields a usable byte fails instead of looping', () => {
    expect(() => generateRecoveryCode((n) => Buffer.alloc(n, 255))).toThrow(/random source/);
  });

  test('input is normalised (dashes and spaces stripped, upper-cased); hashes are keyed by user', () => {
    expect(normaliseRecoveryCode(' abcde-fghjk ')).toBe('ABCDEFGHJK');
    expect(normaliseRecoveryCode('ABCDE FGHJK')).toBe('ABCDEFGHJK');
    expect(normaliseRecoveryCode('ABCDE-FGHJ')).toBeNull();
    expect(normaliseRecoveryCode('ABCDE-FGHJ0')).toBeNull();
    expect(hashRecoveryCode('u1', 'ABCDEFGHJK')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('u1', 'ABCDEFGHJK')).not.toBe(hashRecoveryCode('u2', 'ABCDEFGHJK'));
  });
});
