/**
 * @svc/smtp/testing: a real SMTP peer to send to in tests, and a parser for what @svc/smtp sends.
 * `startPeer` needs `smtp-server` (and, for TypeScript, `@types/smtp-server`), optional peer
 * dependencies of @svc/smtp: install them beside your tests. The main entry never loads them.
 *
 * @example
 * import { parseMail, startPeer } from '@svc/smtp/testing';
 * const peer = await startPeer();
 * // ... send to 127.0.0.1:peer.port ...
 * expect(parseMail(peer.received[0].raw).subject).toBe('Welcome');
 * await peer.close();
 */
export { startPeer, type Peer, type Received } from './peer';
export { parseMail, type ParsedMail } from './mail';
