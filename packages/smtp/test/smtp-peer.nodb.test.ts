// Sends through @svc/smtp to a real SMTP server (npm smtp-server) on 127.0.0.1, one per test,
// each overriding only what it is about. smtp-server waits ~100 ms before each greeting.
import net, { type AddressInfo } from 'node:net';

import type { SMTPServerAuthentication, SMTPServerOptions } from 'smtp-server';

import { SmtpError, SmtpMailer, type SendInput, type SmtpConfig } from '../src';
import { makeCertificates, type TestCertificates } from './helpers/certs';
import { parseMail, startPeer, type Peer } from '../src/testing';

let certs: TestCertificates;
const peers: Peer[] = [];

beforeAll(() => {
  certs = makeCertificates();
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(options: SMTPServerOptions = {}): Promise<Peer> {
  const started = await startPeer(options);
  peers.push(started);
  return started;
}

function mailer(port: number, config: Partial<SmtpConfig> = {}): SmtpMailer {
  return new SmtpMailer({
    host: '127.0.0.1',
    port,
    from: 'Sender <sender@example.com>',
    timeoutMs: 5000,
    ...config,
  });
}

const message: SendInput = { to: 'ann@example.com', subject: 'Hello', text: 'Hi Ann\n' };

async function failure(promise: Promise<unknown>): Promise<SmtpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SmtpError);
    return error as SmtpError;
  }
  throw new Error('expected the send to fail');
}

/** An onAuth that accepts user/secret and records the mechanism used. */
function authHandler(methods: string[]) {
  return (
    auth: SMTPServerAuthentication,
    _session: unknown,
    callback: (err: Error | null, response?: { user: string }) => void,
  ) => {
    methods.push(auth.method);
    if (auth.username === 'user' && auth.password === 'sécret pass')
      callback(null, { user: auth.username ?? '' });
    else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
  };
}

describe('plain TCP', () => {
  test('delivers a message: envelope, headers, body, EHLO hostname', async () => {
    const server = await peer();
    const lines: string[] = [];
    const result = await mailer(server.port, {
      hostname: 'client.example.com',
      replyTo: 'Help <help@example.com>',
      transcript: (direction, line) => lines.push(`${direction}: ${line}`),
    }).send({ ...message, to: ['ann@example.com', 'Bob <bob@example.com>'] });

    expect(result.accepted).toEqual(['ann@example.com', 'bob@example.com']);
    expect(result.rejected).toEqual([]);
    expect(result.messageId).toMatch(/^<[0-9a-f]{32}@client\.example\.com>$/);
    expect(server.connections).toBe(1);
    const [received] = server.received;
    expect(received).toMatchObject({
      from: 'sender@example.com',
      to: ['ann@example.com', 'bob@example.com'],
      clientHostname: 'client.example.com',
      secure: false,
    });
    const mail = parseMail(received?.raw ?? '');
    expect(mail.headers.get('from')).toEqual(['Sender <sender@example.com>']);
    expect(mail.headers.get('to')).toEqual(['ann@example.com, Bob <bob@example.com>']);
    expect(mail.headers.get('reply-to')).toEqual(['Help <help@example.com>']);
    expect(mail.headers.get('message-id')).toEqual([result.messageId]);
    expect(mail.headers.get('mime-version')).toEqual(['1.0']);
    expect(mail.headers.get('date')?.[0]).toMatch(
      /^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000$/,
    );
    expect(mail.contentType).toBe('text/plain; charset=utf-8');
    expect(mail.text).toBe('Hi Ann\r\n');
    expect(lines[0]).toMatch(/^server: 220 /);
    expect(lines).toContain('client: EHLO client.example.com');
    expect(lines).toContain('client: MAIL FROM:<sender@example.com>');
    expect(lines).toContain('client: DATA');
    expect(lines.some((l) => /^server: 250 .*queued/.test(l))).toBe(true);
  });

  test('a per-message from overrides the configured one', async () => {
    const server = await peer();
    await mailer(server.port).send({ ...message, from: 'other@example.org' });
    expect(server.received[0]?.from).toBe('other@example.org');
    expect(parseMail(server.received[0]?.raw ?? '').headers.get('from')).toEqual([
      'other@example.org',
    ]);
  });

  test('html makes a multipart/alternative message', async () => {
    const server = await peer();
    await mailer(server.port).send({ ...message, html: '<p>Hi <b>Ann</b></p>' });
    const mail = parseMail(server.received[0]?.raw ?? '');
    expect(mail.contentType).toMatch(/^multipart\/alternative; boundary="/);
    expect(mail.text).toBe('Hi Ann\r\n');
    expect(mail.html).toBe('<p>Hi <b>Ann</b></p>');
  });

  test('falls back to HELO when EHLO is refused', async () => {
    const server = await peer({ disabledCommands: ['EHLO', 'STARTTLS'] });
    const lines: string[] = [];
    const result = await mailer(server.port, {
      transcript: (d, l) => lines.push(`${d}: ${l}`),
    }).send(message);
    expect(result.accepted).toEqual(['ann@example.com']);
    expect(lines).toContain('client: HELO localhost');
    expect(server.received).toHaveLength(1);
  });

  test('one connection per send, also when sends run in parallel', async () => {
    const server = await peer();
    const m = mailer(server.port);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => m.send({ ...message, to: `user${i}@example.com` })),
    );
    expect(results.map((r) => r.accepted[0]).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `user${i}@example.com`).sort(),
    );
    expect(server.connections).toBe(8);
    expect(new Set(results.map((r) => r.messageId)).size).toBe(8);
  });

  test('a refused connection fails with ECONNECTION', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(mailer(port).send(message));
    expect(error.code).toBe('ECONNECTION');
    expect(error.command).toBe('CONNECT');
  });
});

describe('recipients and the server’s refusals', () => {
  const rejectNobody: SMTPServerOptions['onRcptTo'] = (address, _session, callback) => {
    if (address.address.startsWith('nobody'))
      callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
    else callback();
  };

  test('one rejected recipient of two lands in rejected; the other gets the message', async () => {
    const server = await peer({ onRcptTo: rejectNobody });
    const result = await mailer(server.port).send({
      ...message,
      to: ['nobody@example.com', 'ann@example.com'],
    });
    expect(result.accepted).toEqual(['ann@example.com']);
    expect(result.rejected).toEqual(['nobody@example.com']);
    expect(server.received[0]?.to).toEqual(['ann@example.com']);
  });

  test('when every recipient is rejected, send fails with EENVELOPE and the reply', async () => {
    const server = await peer({ onRcptTo: rejectNobody });
    const error = await failure(
      mailer(server.port).send({ ...message, to: ['nobody@example.com', 'nobody2@example.com'] }),
    );
    expect(error.code).toBe('EENVELOPE');
    expect(error.responseCode).toBe(550);
    expect(error.response).toMatch(/No such user here/);
    expect(error.command).toBe('RCPT TO:<nobody2@example.com>');
    expect(error.message).toMatch(/nobody@example\.com: 550.*nobody2@example\.com: 550/s);
    expect(server.received).toHaveLength(0);
  });

  test('a rejected sender fails with EENVELOPE', async () => {
    const server = await peer({
      onMailFrom: (_address, _session, callback) =>
        callback(Object.assign(new Error('Sender blocked'), { responseCode: 553 })),
    });
    const error = await failure(mailer(server.port).send(message));
    expect(error).toMatchObject({
      code: 'EENVELOPE',
      responseCode: 553,
      command: 'MAIL FROM:<sender@example.com>',
    });
  });

  test('a message rejected after DATA fails with EMESSAGE', async () => {
    const server = await peer({
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('Message looks like spam'), { responseCode: 554 })),
        );
      },
    });
    const error = await failure(mailer(server.port).send(message));
    expect(error).toMatchObject({ code: 'EMESSAGE', responseCode: 554, command: '.' });
    expect(error.response).toMatch(/spam/);
  });

  test('a message over the advertised SIZE is refused before DATA', async () => {
    const server = await peer({ size: 200 });
    const error = await failure(mailer(server.port).send({ ...message, text: 'x'.repeat(500) }));
    expect(error.code).toBe('EMESSAGE');
    expect(error.message).toMatch(/limit of 200/);
    expect(server.received).toHaveLength(0);
  });
});

describe('authentication', () => {
  test('AUTH PLAIN when advertised (loopback, so allowed without TLS)', async () => {
    const methods: string[] = [];
    const server = await peer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth: authHandler(methods),
    });
    const result = await mailer(server.port, { auth: { user: 'user', pass: 'sécret pass' } }).send(
      message,
    );
    expect(result.accepted).toEqual(['ann@example.com']);
    expect(methods).toEqual(['PLAIN']);
    expect(server.received[0]?.user).toBe('user');
  });

  test('AUTH LOGIN when PLAIN is not advertised', async () => {
    const methods: string[] = [];
    const server = await peer({
      authOptional: false,
      allowInsecureAuth: true,
      authMethods: ['LOGIN'],
      onAuth: authHandler(methods),
    });
    await mailer(server.port, { auth: { user: 'user', pass: 'sécret pass' } }).send(message);
    expect(methods).toEqual(['LOGIN']);
    expect(server.received).toHaveLength(1);
  });

  test.each([['PLAIN'], ['LOGIN']])(
    'a wrong password fails with EAUTH (%s), credentials never logged',
    async (method) => {
      const methods: string[] = [];
      const server = await peer({
        authOptional: false,
        allowInsecureAuth: true,
        authMethods: [method],
        onAuth: authHandler(methods),
      });
      const lines: string[] = [];
      const pass = 'wrong-password';
      const error = await failure(
        mailer(server.port, {
          auth: { user: 'user', pass },
          transcript: (d, l) => lines.push(`${d}: ${l}`),
        }).send(message),
      );
      expect(error).toMatchObject({
        code: 'EAUTH',
        responseCode: 535,
        command: `AUTH ${method} ****`,
      });
      expect(error.response).toMatch(/Invalid username or password/);
      expect(server.received).toHaveLength(0);
      const everything = [...lines, error.message, error.command].join('\n');
      for (const secret of [
        pass,
        Buffer.from(pass).toString('base64'),
        Buffer.from('user').toString('base64'),
        Buffer.from(`\0user\0${pass}`).toString('base64'),
      ]) {
        expect(everything).not.toContain(secret);
      }
      expect(lines).toContain(method === 'PLAIN' ? 'client: AUTH PLAIN ****' : 'client: ****');
    },
  );
});

describe('TLS', () => {
  test('STARTTLS when advertised: the message travels encrypted', async () => {
    const methods: string[] = [];
    const server = await peer({
      disabledCommands: [],
      key: certs.key,
      cert: certs.cert,
      authOptional: false,
      onAuth: authHandler(methods),
    });
    const lines: string[] = [];
    await mailer(server.port, {
      tls: { ca: certs.ca },
      auth: { user: 'user', pass: 'sécret pass' },
      transcript: (d, l) => lines.push(`${d}: ${l}`),
    }).send(message);
    expect(server.received[0]?.secure).toBe(true);
    expect(methods).toEqual(['PLAIN']);
    // EHLO again after the handshake.
    expect(lines.filter((l) => l === 'client: EHLO localhost')).toHaveLength(2);
    expect(lines.indexOf('client: STARTTLS')).toBeGreaterThan(0);
  });

  test('STARTTLS to a certificate from an untrusted CA fails with ETLS', async () => {
    const server = await peer({ disabledCommands: [], key: certs.key, cert: certs.cert });
    const error = await failure(mailer(server.port, { tls: { ca: certs.otherCa } }).send(message));
    expect(error.code).toBe('ETLS');
    expect(error.command).toBe('STARTTLS');
    expect(server.received).toHaveLength(0);
  });

  test('implicit TLS to a plain server fails with ETLS and a hint', async () => {
    const server = await peer();
    const error = await failure(mailer(server.port, { secure: true }).send(message));
    expect(error.code).toBe('ETLS');
    expect(error.message).toMatch(/does not speak implicit TLS/);
  });

  test('implicit TLS (secure) with a private CA', async () => {
    const server = await peer({ secure: true, key: certs.key, cert: certs.cert });
    const result = await mailer(server.port, { secure: true, tls: { ca: certs.ca } }).send(message);
    expect(result.accepted).toEqual(['ann@example.com']);
    expect(server.received[0]?.secure).toBe(true);
  });

  test('implicit TLS by host name: the certificate is checked against "localhost"', async () => {
    const server = await peer({ secure: true, key: certs.key, cert: certs.cert });
    const result = await mailer(server.port, {
      host: 'localhost',
      secure: true,
      tls: { ca: certs.ca },
    }).send(message);
    expect(result.accepted).toEqual(['ann@example.com']);
  });

  test('implicit TLS without trusting the CA fails with ETLS, even with tlsRejectUnauthorized: false', async () => {
    const server = await peer({ secure: true, key: certs.key, cert: certs.cert });
    const logger = { info: jest.fn(), warn: jest.fn() };
    const error = await failure(
      mailer(server.port, { secure: true, tlsRejectUnauthorized: false, logger }).send(message),
    );
    expect(error.code).toBe('ETLS');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(server.received).toHaveLength(0);
  });
});

describe('message content, byte for byte', () => {
  test('non-ASCII subject, names and body round-trip exactly', async () => {
    const server = await peer();
    const subject =
      'Grüße aus Köln — 日本語の件名 😀 and a rather long tail to force more than one encoded word';
    const text = 'Здравствуйте!\r\nZażółć gęślą jaźń.\r\n中文内容 ✓ 🚀\r\nend without newline';
    const html = '<p>Ünïcödé <b>HTML</b> — 😀</p>\r\n';
    await mailer(server.port, { from: 'Zoë Ämtli <zoe@example.com>' }).send({
      to: 'Ånn <ann@example.com>',
      subject,
      text,
      html,
    });
    const raw = server.received[0]?.raw ?? Buffer.alloc(0);
    expect(raw.every((byte) => byte < 0x80)).toBe(true);
    const mail = parseMail(raw);
    expect(mail.subject).toBe(subject);
    expect(Buffer.from(mail.text, 'utf8').equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(Buffer.from(mail.html ?? '', 'utf8').equals(Buffer.from(html, 'utf8'))).toBe(true);
    expect(mail.headers.get('from')?.[0]).toMatch(/^=\?UTF-8\?B\?.*\?= <zoe@example\.com>$/);
  });

  test('lines that are "." or start with "." arrive unchanged (dot-stuffing)', async () => {
    const server = await peer();
    const text = '.\r\n..\r\n.hidden\r\n...three\r\nmiddle . dot\r\n.\r\nQUIT\r\n.';
    const lines: string[] = [];
    await mailer(server.port, { transcript: (d, l) => lines.push(`${d}: ${l}`) }).send({
      ...message,
      text,
      html: '.\r\n.<p>x</p>',
    });
    const mail = parseMail(server.received[0]?.raw ?? '');
    expect(mail.text).toBe(text);
    expect(mail.html).toBe('.\r\n.<p>x</p>');
    // The server never saw the body's "." line as the end of data, nor a QUIT command in it.
    expect(lines.filter((l) => l.startsWith('server: 250 ') && /queued/.test(l))).toHaveLength(1);
  });

  test('long lines and LF / CR line breaks: lines on the wire stay short, content intact', async () => {
    const server = await peer();
    const long = 'x'.repeat(5000);
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    await mailer(server.port).send({
      ...message,
      subject: words,
      text: `${long}\n${words}\rlast\n`,
    });
    const raw = server.received[0]?.raw.toString('latin1') ?? '';
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const mail = parseMail(raw);
    expect(mail.subject).toBe(words);
    expect(mail.text).toBe(`${long}\r\n${words}\r\nlast\r\n`);
  });

  test('empty text', async () => {
    const server = await peer();
    await mailer(server.port).send({ ...message, text: '' });
    expect(parseMail(server.received[0]?.raw ?? '').text).toBe('');
  });
});

// Header injection: CR or LF in a header value or address would end the header early and let
// the caller (or an attacker who controls a field) add headers such as Bcc, or SMTP commands.
describe('header injection is refused before anything is sent', () => {
  test.each<[string, Partial<SendInput>]>([
    ['subject', { subject: 'Hi\r\nBcc: victim@example.com' }],
    ['subject (bare LF)', { subject: 'Hi\nBcc: victim@example.com' }],
    ['to', { to: 'ann@example.com\r\nBcc: victim@example.com' }],
    [
      'to (array, second)',
      { to: ['ann@example.com', 'bob@example.com>\r\nRCPT TO:<victim@example.com'] },
    ],
    ['from', { from: 'sender@example.com\r\nBcc: victim@example.com' }],
  ])('%s', async (_field, change) => {
    const server = await peer();
    const error = await failure(mailer(server.port).send({ ...message, ...change }));
    expect(error.code).toBe('EMESSAGE');
    expect(error.message).toMatch(/CR and LF are not allowed.*header injection/);
    expect(server.connections).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  test('in the config (replyTo, hostname) it is refused at construction', () => {
    expect(() => mailer(1, { replyTo: 'a@example.com\r\nBcc: victim@example.com' })).toThrow(
      /replyTo: CR and LF/,
    );
    expect(() => mailer(1, { hostname: 'x\r\nMAIL FROM:<victim@example.com>' })).toThrow(
      /hostname must be/,
    );
  });
});
