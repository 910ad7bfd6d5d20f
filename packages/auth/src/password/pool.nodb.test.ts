/**
 * The bcrypt worker pool: hashes compatible with the native `bcrypt` module it replaced, a
 * malformed hash a mismatch (not an error), the queue bounded, the event loop free while a hash
 * runs, and a closed pool that starts again.
 */
import bcrypt from 'bcryptjs';
import { createPasswordHasher, dummyBcryptHash } from './index';
import { createBcryptPool, bcryptPool } from './pool';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Made by the native `bcrypt` 6.0.0 module (hashSync; `$2a$` through genSaltSync(4, 'a')) before
// it was replaced: hashes stored by earlier versions of svc must keep verifying.
const NATIVE_HASHES: readonly (readonly [string, string])[] = [
  ['correct horse battery staple', '$2b$04$eFk4sFGjJiLgXSvTK.UVj.AJofbcy1/Bw.Och3rSDEuTl5H.ym8C6'],
  ['correct horse battery staple', '$2b$05$A5.sij0ytTI8pOuGYUS.G.Jur9vFyQQNVcRyrFiaWKHi3GjmMzr7O'],
  ['pässwort', '$2b$04$b3PukboDFnYMjAMeM.3UX.vihN1n6UZ3udeSgJNQVQX/rO9.KLuhe'],
  ['pässwort', '$2b$05$ICrL39HkXX9XdagVg5f1q.P/eqeNxaeypgqD03/GXI6PqbnpF2P6e'],
  ['', '$2b$04$glKp6MinAuugnKwI1IsX2OMpJFxJMRFO1qSVyIErTkk959MFQXuMi'],
  ['x'.repeat(72), '$2b$04$ixHTWGGiWI61ToxgQ.OgfOvmaJmjkYR5wk/QykONcXMOjYPOZC4py'],
  ['😀emojié', '$2b$04$TB21i6f5sjPfOpflEwlX6OY3bCWRHIxk30XZTRmiGRYOsfYKYit02'],
  ['Pa55w0rd!', '$2b$05$Y41/LGR3BQUcbcpvczX.wOK73nVh2SIAs2mF2Z6/mSTH0KwVS569m'],
  ['legacy 2a hash', '$2a$04$YdLYK.ncaqwFaa.XV/3SWucMov9M9yAlcZ9d.erHQm6THh1mQSeG6'],
  ['pässwort 2a', '$2a$04$/o2aTFbQrtueXhblHXUO8eSyepmO4wzZQ.bmIrwRfbwG.9BHFnIrm'],
  ['cost ten', '$2b$10$4stLe36hCQFl1cX1ac4N0.U8TgwV860Ev6LjcriP.1ijECnFMg3am'],
  // 100 bytes: bcrypt reads the first 72 (svc refuses such a new password; an old hash may exist).
  ['long '.repeat(20), '$2b$04$zojvXGyIn1z0jMhLfwoMGu96QDXnrK72dRXY30Al4lGuWQ3Fwi55q'],
];

describe('bcrypt pool', () => {
  const pool = bcryptPool();

  test.each(NATIVE_HASHES)(
    'a native hash of %j verifies, and not for another password',
    async (password, hash) => {
      await expect(pool.compare(password, hash)).resolves.toBe(true);
      await expect(pool.compare(`${password.slice(0, 60)}?`, hash)).resolves.toBe(false);
    },
  );

  test('a hash is $2b$ at the cost asked, salted anew each time, and verifies', async () => {
    const [a, b] = await Promise.all([pool.hash('pässwort', 5), pool.hash('pässwort', 5)]);
    expect(a).toMatch(/^\$2b\$05\$[./A-Za-z0-9]{53}$/);
    expect(a).not.toBe(b);
    await expect(pool.compare('pässwort', a)).resolves.toBe(true);
    await expect(pool.compare('passwort', a)).resolves.toBe(false);
  });

  test.each([
    ['not a hash', 'garbage'],
    ['a short one', '$2b$04$short'],
    ['a bad salt', `$2b$04$${'!'.repeat(53)}`],
    ['an unknown revision', '$2c$04$eFk4sFGjJiLgXSvTK.UVj.AJofbcy1/Bw.Och3rSDEuTl5H.ym8C6'],
    ['a cost out of range', '$2b$99$eFk4sFGjJiLgXSvTK.UVj.AJofbcy1/Bw.Och3rSDEuTl5H.ym8C6'],
  ])('%s is a mismatch, not an error', async (_name, hash) => {
    await expect(pool.compare('correct horse battery staple', hash)).resolves.toBe(false);
  });

  test('past the busy workers and a full queue, a task is refused at once with SERVICE_UNAVAILABLE', async () => {
    const small = createBcryptPool({ size: 1, maxQueue: 1 });
    try {
      const running = small.hash('one', 6);
      const queued = small.hash('two', 6);
      expect(small.stats()).toEqual({ workers: 1, busy: 1, queued: 1 });
      await expect(small.hash('three', 6)).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
      });
      await expect(Promise.all([running, queued])).resolves.toEqual([
        expect.stringMatching(/^\$2b\$06\$/),
        expect.stringMatching(/^\$2b\$06\$/),
      ]);
      expect(small.stats()).toEqual({ workers: 1, busy: 0, queued: 0 });
    } finally {
      await small.close();
    }
  });

  test('the event loop runs while a hash at cost 12 does', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await pool.hash('correct horse battery staple', 12);
    } finally {
      clearInterval(timer);
    }
    // A hash on the loop would block the timer until it returned (a few hundred milliseconds).
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  test('a worker idle for idleMs stops; the next task starts one again', async () => {
    const own = createBcryptPool({ size: 2, idleMs: 50 });
    try {
      await Promise.all([own.hash('a', 4), own.hash('b', 4)]);
      // Two started; on a loaded machine the first may already have idled out while the second
      // was still hashing, so only the one that answered last is certain to be there.
      expect(own.stats().workers).toBeGreaterThanOrEqual(1);
      expect(own.stats().workers).toBeLessThanOrEqual(2);
      for (let i = 0; i < 100 && own.stats().workers > 0; i++) await sleep(20);
      expect(own.stats().workers).toBe(0);
      await expect(own.compare('legacy 2a hash', NATIVE_HASHES[8]![1])).resolves.toBe(true);
      expect(own.stats().workers).toBe(1);
    } finally {
      await own.close();
    }
  });

  test('close fails what is in flight; the next task starts the pool again', async () => {
    const own = createBcryptPool({ size: 1 });
    const inFlight = own.hash('closing', 10);
    await own.close();
    await expect(inFlight).rejects.toThrow('bcrypt pool closed');
    expect(own.stats()).toEqual({ workers: 0, busy: 0, queued: 0 });
    await expect(own.compare('legacy 2a hash', NATIVE_HASHES[8]![1])).resolves.toBe(true);
    await own.close();
  });
});

describe('the hasher over the pool', () => {
  test('an unknown login compares with a dummy of the same cost, made without hashing anything', async () => {
    const hash = jest.fn<Promise<string>, [string, number]>();
    const compare = jest.fn<Promise<boolean>, [string, string]>().mockResolvedValue(false);
    const pool = { ...createBcryptPool({ size: 1 }), hash, compare };
    const hasher = createPasswordHasher(4, pool);
    await expect(hasher.burn('password1')).resolves.toBe(false);
    await hasher.burn('password2');
    expect(hash).not.toHaveBeenCalled();
    const dummies = compare.mock.calls.map(([, against]) => against);
    expect(dummies).toEqual([dummies[0], dummies[0]]); // one dummy per hasher
  });

  test.each([4, 10])(
    'a dummy of cost %i is one bcrypt reads, hashes with and never matches',
    (rounds) => {
      const dummy = dummyBcryptHash(rounds);
      expect(dummy).toMatch(/^\$2b\$\d\d\$[./A-Za-z0-9]{53}$/);
      expect(bcrypt.getRounds(dummy)).toBe(rounds);
      expect(dummyBcryptHash(rounds)).not.toBe(dummy); // random salt and digest
      // bcrypt hashes with the dummy's salt (a salt it could not read would throw), to a hash of the
      // same cost and salt: what a compare does before comparing digests, so it costs the same.
      const salt = dummy.slice(0, 29);
      const made = bcrypt.hashSync('password1', salt);
      expect(made.slice(0, 29)).toBe(salt);
      expect(made).toHaveLength(60);
      expect(bcrypt.compareSync('password1', dummy)).toBe(false);
    },
  );
});
