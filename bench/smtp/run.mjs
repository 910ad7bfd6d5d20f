// Throughput of @svc/smtp against Nodemailer's SMTP transport (non-pooled), in one process,
// against one local smtp-server: N messages each, one connection per message, C sends in flight.
// smtp-server waits ~100 ms before greeting each connection, so throughput is bounded near
// C / 0.1 s; what differs between the two clients is the work around that wait.
//
//   node bench/smtp/run.mjs [--messages 400] [--concurrency 32] [--rounds 3]
//
// Needs the built package: `cd packages/smtp && npx pnpm@10.34.8 build`.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(new URL('../../packages/smtp/package.json', import.meta.url));
const nodemailer = require('nodemailer');
const { SMTPServer } = require('smtp-server');
const { default: svc } = await import(
  new URL('../../packages/smtp/dist/index.js', import.meta.url)
);

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
  },
});
const MESSAGES = Number(values.messages);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const DEADLINE = Date.now() + 55_000; // keep the whole run under a minute

let received = 0;
const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.server.address().port;

const text = `Hello,\n\n${'This is a benchmark message with a few words in it. Grüße, 你好. '.repeat(20)}\n\n-- \nsvc\n`;
const html = `<p>${text.replace(/\n/g, '<br>')}</p>`;
const mail = (i) => ({
  to: `user${i}@example.com`,
  subject: `Benchmark message ${i} — ünïcödé`,
  text,
  html,
});

const ours = new svc.SmtpMailer({
  host: '127.0.0.1',
  port,
  from: 'Bench <bench@example.com>',
  timeoutMs: 10_000,
});
const theirs = nodemailer.createTransport({
  host: '127.0.0.1',
  port,
  secure: false,
  pool: false,
  ignoreTLS: true,
});
const clients = {
  '@svc/smtp': (i) => ours.send(mail(i)),
  nodemailer: (i) => theirs.sendMail({ from: 'Bench <bench@example.com>', ...mail(i) }),
};

/** Sends `count` messages with `CONCURRENCY` in flight; returns messages per second. */
async function run(send, count) {
  const before = received;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    // Bounded: each iteration takes one of `count` indices.
    while (next < count && Date.now() < DEADLINE) await send(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  const seconds = (performance.now() - start) / 1000;
  const sent = received - before;
  if (sent !== count) throw new Error(`expected ${count} messages at the server, got ${sent}`);
  return count / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm up both (JIT, TLS-free code paths, smtp-server).
for (const send of Object.values(clients)) await run(send, CONCURRENCY * 2);

const results = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither client always runs first.
  const names = round % 2 === 0 ? Object.keys(clients) : Object.keys(clients).reverse();
  for (const name of names) results[name].push(await run(clients[name], MESSAGES));
}

console.log(
  `${MESSAGES} messages per round, ${CONCURRENCY} in flight, one connection per message, ${ROUNDS} rounds (median)`,
);
for (const [name, rates] of Object.entries(results)) {
  console.log(
    `${name.padEnd(12)} ${median(rates).toFixed(1).padStart(7)} messages/s   rounds: ${rates.map((r) => r.toFixed(1)).join(', ')}`,
  );
}
const ratio = median(results['@svc/smtp']) / median(results.nodemailer);
console.log(`ratio svc/nodemailer: ${ratio.toFixed(3)}${ratio >= 1 ? '' : '  (svc slower)'}`);

theirs.close();
await new Promise((resolve) => server.close(resolve));
