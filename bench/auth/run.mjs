// bench/auth: (1) logins/s through @svc/auth at bcryptRounds 12 against raw bcrypt compares/s in
// the same worker pool at the same cost and concurrency, in the same run (goal: ratio >= 0.95),
// with the event loop's worst delay during logins (bcrypt runs in worker threads: the loop must
// stay free; bench/password compares the pool with bcrypt on the loop); (2) the CPU
// cost of verifying an access token: the HMAC floor, jsonwebtoken with a string secret, ours
// (KeyObject; goal < 30 us), and ours plus the session check; (3) passkey sign-in latency
// (login/begin, a software authenticator's assertion, login/finish), server time per step;
// (4) TOTP verification: the CPU of checking a code (three HOTP steps) and the wall latency of
// answering an MFA challenge.
// Usage: pnpm build && node bench/auth/run.mjs [--seconds 5] [--concurrency 4]
import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const require = createRequire(new URL('../../packages/auth/package.json', import.meta.url));
const { bcryptPool } = require('../../packages/auth/dist/password/pool.js');
const jwt = require('jsonwebtoken');
const {
  base32Decode,
  createAuth,
  createTokenVerifier,
  hotp,
  totp,
} = require('../../packages/auth/dist/index.js');
const { openDatabase } = require('../../packages/core/dist/index.js');
const { SoftAuthenticator } = require('../../packages/auth/dist/testing.js');

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '4' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const SECRET = 'bench-secret-0123456789-abcdefghijklmnop';
const PASSWORD = 'correct horse battery staple';

/** Runs `op` with `concurrency` in flight for `seconds`; returns ops/s. */
async function throughput(op) {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      await op();
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - t0) / 1000);
}

const database = process.env.DATABASE_URL
  ? await openDatabase({ url: process.env.DATABASE_URL })
  : await openDatabase({ memory: true });
// One account logs in over and over: limits high enough never to refuse, so the rate limiter's
// cost is measured with the rest of a login.
const rateLimits = {
  login: { perEmail: 10_000, perIp: 10_000 },
  webauthnLoginBegin: { perEmail: 10_000, perIp: 10_000 },
  webauthnLoginFinish: { perEmail: 10_000, perIp: 10_000 },
};
const ORIGIN = 'https://app.example.test';
const webauthn = { origin: ORIGIN, rpId: 'example.test', rpName: 'bench' };
const auth = await createAuth(
  { jwtSecret: SECRET, bcryptRounds: 12, rateLimits, webauthn },
  { database },
);
const email = `bench-${randomUUID()}@example.com`;
await auth.register({ email, password: PASSWORD });
const pool = bcryptPool();
const hash = await pool.hash(PASSWORD, 12);

// Warm up both paths once.
await pool.compare(PASSWORD, hash);
await auth.login({ email, password: PASSWORD });

// Alternate rounds so a passing load on the machine hits both alike; report medians.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const raws = [];
const logins = [];
let loopMax = 0;
for (let round = 0; round < 3; round++) {
  raws.push(await throughput(() => pool.compare(PASSWORD, hash)));
  // A fresh monitor per round: re-enabling one would count the paused gap as a delay.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  logins.push(await throughput(() => auth.login({ email, password: PASSWORD })));
  loop.disable();
  loopMax = Math.max(loopMax, loop.max);
}
const rawRate = median(raws);
const loginRate = median(logins);

console.log(
  `logins at bcryptRounds 12, ${concurrency} in flight, 3 alternating rounds of ${seconds} s, medians (${database.description})`,
);
console.log(
  `  raw pool.compare     ${rawRate.toFixed(2)} /s   rounds ${raws.map((r) => r.toFixed(2)).join(', ')}`,
);
console.log(
  `  auth.login           ${loginRate.toFixed(2)} /s   rounds ${logins.map((r) => r.toFixed(2)).join(', ')}   event loop max delay ${(loopMax / 1e6).toFixed(1)} ms`,
);
console.log(`  ratio login/raw = ${(loginRate / rawRate).toFixed(3)} (goal >= 0.95)`);

// Token verification: CPU per call, median of rounds.
const { token } = await auth.login({ email, password: PASSWORD });
const verifier = createTokenVerifier({ jwtSecret: SECRET });
const [head, body, sig] = token.split('.');
const cpuPerCall = (fn, n) => {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / n);
  }
  return rounds.sort((a, b) => a - b)[2];
};
const floor = cpuPerCall(() => {
  const expected = createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url');
  if (expected !== sig) throw new Error('bad signature');
  JSON.parse(Buffer.from(body, 'base64url').toString());
}, 20000);
const stringSecret = cpuPerCall(
  () => jwt.verify(token, SECRET, { algorithms: ['HS256'], audience: 'svc-api', issuer: 'svc' }),
  2000,
);
// The verifier keeps the tokens it verified (a bounded map): a client's next request with the same
// token checks only its expiry. Measured apart: the first verification of a token (each call a
// token the verifier has not seen: the claims of this one with another jti, signed alike) and a
// known token again.
const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
const freshTokens = (n) =>
  Array.from({ length: n }, (_, i) => {
    const claims = Buffer.from(
      JSON.stringify({ ...payload, jti: `${payload.jti}-${i}-${Math.random()}` }),
    ).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(`${head}.${claims}`).digest('base64url');
    return `${head}.${claims}.${signature}`;
  });
const firstRounds = [];
for (let r = 0; r < 5; r++) {
  const tokens = freshTokens(5000);
  const start = process.cpuUsage();
  for (const t of tokens) verifier.verify(t);
  const used = process.cpuUsage(start);
  firstRounds.push((used.user + used.system) / tokens.length);
}
const ours = firstRounds.sort((a, b) => a - b)[2];
const known = cpuPerCall(() => verifier.verify(token), 20000);
// The whole check a request pays: signature, claims and the live-session query.
const n = 2000;
const start = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < n; i++) await auth.verifyToken(token);
const wall = (performance.now() - t0) / n;
const used = process.cpuUsage(start);
const withSession = (used.user + used.system) / n;
console.log('token verification, CPU per call (median of 5 rounds)');
console.log(`  raw HMAC-SHA256 + JSON floor        ${floor.toFixed(1)} us`);
console.log(`  jsonwebtoken, string secret         ${stringSecret.toFixed(1)} us`);
console.log(
  `  @svc/auth verifier (KeyObject)      ${ours.toFixed(1)} us   ratio to floor ${(ours / floor).toFixed(1)}x (goal < 30 us; a token not seen before)`,
);
console.log(`  @svc/auth verifier, a known token   ${known.toFixed(1)} us   (its expiry checked)`);
console.log(
  `  @svc/auth verifyToken + session     ${withSession.toFixed(1)} us CPU, ${(wall * 1000).toFixed(1)} us wall (${database.kind})`,
);

// Passkey sign-in: begin, the authenticator's ECDSA signature (client side, reported apart),
// finish (challenge consumed, assertion verified, counter moved, session issued). Sequential, so
// each figure is one request's latency; the counter starts at 1 so its conditional update runs.
const passkeyUser = await auth.login({ email, password: PASSWORD });
const softKey = new SoftAuthenticator();
const regBegin = await auth.webauthn.registerBegin(passkeyUser.token);
const reg = softKey.create(regBegin.options, { origin: ORIGIN, counter: 1 });
await auth.webauthn.registerFinish(passkeyUser.token, {
  challengeId: regBegin.challengeId,
  ...reg,
});
const beginMs = [];
const signMs = [];
const finishMs = [];
const ip = '192.0.2.10';
for (let i = 0; i < 20; i++) {
  const b = await auth.webauthn.loginBegin({}, { ip });
  await auth.webauthn.loginFinish(
    { challengeId: b.challengeId, ...softKey.get(b.options, { origin: ORIGIN }) },
    { ip },
  );
}
const passkeyRuns = Math.max(50, seconds * 40);
for (let i = 0; i < passkeyRuns; i++) {
  const t1 = performance.now();
  const b = await auth.webauthn.loginBegin({}, { ip });
  const t2 = performance.now();
  const assertion = softKey.get(b.options, { origin: ORIGIN });
  const t3 = performance.now();
  await auth.webauthn.loginFinish({ challengeId: b.challengeId, ...assertion }, { ip });
  const t4 = performance.now();
  beginMs.push(t2 - t1);
  signMs.push(t3 - t2);
  finishMs.push(t4 - t3);
}
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const row = (label, xs) =>
  `  ${label.padEnd(40)}p50 ${pct(xs, 0.5).toFixed(2)} ms   p95 ${pct(xs, 0.95).toFixed(2)} ms`;
console.log(`passkey sign-in latency, ${passkeyRuns} sequential sign-ins (${database.kind})`);
console.log(row('webauthn.loginBegin (server)', beginMs));
console.log(row('soft authenticator assertion (client)', signMs));
console.log(row('webauthn.loginFinish (server)', finishMs));
console.log(
  row(
    'begin + finish (server total)',
    beginMs.map((b, i) => b + finishMs[i]),
  ),
);
// TOTP: a user with confirmed TOTP signs in (bcrypt at cost 4: only the second step is timed)
// and answers each challenge with the code of the next 30-second step (a code is good once, so
// the instance's clock moves one step per sign-in).
let clock = Date.now();
const mfaAuth = await createAuth(
  { jwtSecret: SECRET, bcryptRounds: 4, rateLimits: false },
  { database, now: () => clock, logger: { info() {}, warn() {}, error() {} } },
);
const mfaEmail = `bench-mfa-${randomUUID()}@example.com`;
const mfaUser = await mfaAuth.register({ email: mfaEmail, password: PASSWORD });
const key = base32Decode((await mfaAuth.mfa.enrollTotp(mfaUser.token)).secret);
await mfaAuth.mfa.confirmTotp(mfaUser.token, totp(key, clock));
const codeCpu = cpuPerCall(() => {
  for (let d = -1; d <= 1; d++) hotp(key, 1000 + d);
}, 20000);
const answers = [];
for (let i = 0; i < 200; i++) {
  clock += 30_000;
  const challenge = await mfaAuth.login({ email: mfaEmail, password: PASSWORD });
  const code = totp(key, clock);
  const t = performance.now();
  await mfaAuth.mfa.totpLogin(challenge.challengeToken, code);
  answers.push(performance.now() - t);
}
answers.sort((a, b) => a - b);
const at = (p) => pct(answers, p);
console.log('TOTP verification');
console.log(`  code check (3 HOTP-SHA1 steps), CPU   ${codeCpu.toFixed(1)} us`);
console.log(
  `  auth.mfa.totpLogin, wall             median ${(at(0.5) * 1000).toFixed(0)} us, p95 ${(at(0.95) * 1000).toFixed(0)} us over ${answers.length} challenges (${database.kind}; decrypt, check, consume + session)`,
);
await mfaAuth.close();

await auth.close();
await database.close();
