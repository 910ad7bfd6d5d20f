// Security: credential leakage over cleartext. With auth configured, a server that does not
// offer STARTTLS (or a man in the middle who strips it from the EHLO reply) would receive the
// password in the clear. The client refuses unless the connection is encrypted or the peer is a
// loopback address. Tests may only use 127.0.0.1, so the loopback check is replaced here to make
// 127.0.0.1 look remote.
import { SmtpMailer } from '../src';
import { makeCertificates } from './helpers/certs';
import { startPeer, type Peer } from '../src/testing';

jest.mock('../src/loopback', () => ({ isLoopbackAddress: () => false }));

const message = { to: 'ann@example.com', subject: 'Hello', text: 'Hi' };
const peers: Peer[] = [];

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});

test('credentials are not sent over an unencrypted connection to a non-loopback peer', async () => {
  const onAuth = jest.fn((_auth, _session, callback) => callback(null, { user: 'user' }));
  const peer = await startPeer({ authOptional: false, allowInsecureAuth: true, onAuth });
  peers.push(peer);
  const lines: string[] = [];
  const send = new SmtpMailer({
    host: '127.0.0.1',
    port: peer.port,
    from: 's@example.com',
    auth: { user: 'user', pass: 'secret' },
    transcript: (direction, line) => lines.push(`${direction}: ${line}`),
  }).send(message);
  await expect(send).rejects.toMatchObject({
    code: 'ETLS',
    message: expect.stringMatching(
      /refusing to send credentials over an unencrypted connection to 127\.0\.0\.1:\d+/,
    ),
  });
  expect(onAuth).not.toHaveBeenCalled();
  expect(lines.some((l) => l.startsWith('client: AUTH'))).toBe(false);
  expect(peer.received).toHaveLength(0);
});

test('over STARTTLS the same credentials are sent', async () => {
  const certs = makeCertificates();
  const onAuth = jest.fn((_auth, _session, callback) => callback(null, { user: 'user' }));
  const peer = await startPeer({
    disabledCommands: [],
    key: certs.key,
    cert: certs.cert,
    authOptional: false,
    onAuth,
  });
  peers.push(peer);
  await new SmtpMailer({
    host: '127.0.0.1',
    port: peer.port,
    from: 's@example.com',
    auth: { user: 'user', pass: 'secret' },
    tls: { ca: certs.ca },
  }).send(message);
  expect(onAuth).toHaveBeenCalledTimes(1);
  expect(peer.received[0]?.secure).toBe(true);
});

test('without credentials, plain TCP to a non-loopback peer is allowed', async () => {
  const peer = await startPeer();
  peers.push(peer);
  const result = await new SmtpMailer({
    host: '127.0.0.1',
    port: peer.port,
    from: 's@example.com',
  }).send(message);
  expect(result.accepted).toEqual(['ann@example.com']);
});
