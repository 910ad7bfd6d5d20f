import net from 'node:net';
import tls from 'node:tls';

import { NO_CAPABILITIES, parseEhloReply, type Capabilities } from './capabilities';
import type { ResolvedConfig } from './config';
import { dotStuff } from './dot-stuffing';
import { SmtpError, type SmtpErrorCode } from './errors';
import { isLoopbackAddress } from './loopback';
import { formatReply, ReplyParser, type SmtpReply } from './reply-parser';

/** The SMTP envelope of one message: bare addresses, validated. */
export interface Envelope {
  readonly from: string;
  readonly to: readonly string[];
}

export interface TransactionResult {
  readonly accepted: string[];
  readonly rejected: string[];
}

/** How long to wait for the server to close after QUIT before dropping the socket. */
export const QUIT_GRACE_MS = 1000;

/** What `command` says for the reply that answers no command (the greeting) and for the end of data. */
export const GREETING = 'CONNECT';
export const END_OF_DATA = '.';

/** A reply this connection waits for: the command it answers (masked) and its handler. */
interface ExpectedReply {
  readonly command: string;
  readonly handle: (reply: SmtpReply) => void;
}

/**
 * One SMTP session that delivers one message, then quits. Its state is the queue of replies it
 * expects next, each handled by the method named after the command it answers (`onGreeting`,
 * `onEhlo`, `onStartTls`, `onAuth`, `onMailFrom`, `onRcptTo`, `onData`, `onDataEnd`). One timer
 * bounds the whole session; when it fires, the socket is destroyed.
 */
export class SmtpConnection {
  private socket: net.Socket | undefined;
  private readonly parser = new ReplyParser();
  private readonly expected: ExpectedReply[] = [];
  private capabilities: Capabilities = NO_CAPABILITIES;
  /** True once TLS is up (implicit, or after STARTTLS). */
  private encrypted = false;
  /** True between the 220 to STARTTLS and the end of the handshake: nothing may be read then. */
  private upgrading = false;
  /** True while a TLS handshake runs on a connected socket: errors then are `ETLS`. */
  private handshaking = false;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly data: string;
  private next = 0;
  private readonly accepted: string[] = [];
  private readonly rejected: string[] = [];
  private readonly rejections: string[] = [];
  private lastRejection: { response?: string; responseCode?: number; command?: string } = {};
  private resolve: (result: TransactionResult) => void = () => undefined;
  private reject: (error: SmtpError) => void = () => undefined;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly envelope: Envelope,
    message: string,
  ) {
    this.data = dotStuff(message);
  }

  /** Connects, delivers the message and resolves with the recipients the server accepted and rejected. */
  send(): Promise<TransactionResult> {
    return new Promise<TransactionResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.timer = setTimeout(() => this.onTimeout(), this.config.timeoutMs);
      this.connect();
    });
  }

  // ---------------------------------------------------------------- socket

  private tlsOptions(): tls.ConnectionOptions {
    const { host, ca } = this.config;
    return {
      host,
      // SNI carries names only (RFC 6066); for an IP the certificate is checked against the IP.
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...(ca === undefined ? {} : { ca }),
      // Always on, whatever tlsRejectUnauthorized says (see SmtpConfig).
      rejectUnauthorized: true,
    };
  }

  private connect(): void {
    const { host, port, secure } = this.config;
    this.expect(GREETING, (reply) => this.onGreeting(reply));
    let socket: net.Socket;
    if (secure) {
      const tlsSocket = tls.connect({ ...this.tlsOptions(), port });
      tlsSocket.once('connect', () => {
        this.handshaking = true;
      });
      tlsSocket.once('secureConnect', () => {
        this.handshaking = false;
        this.encrypted = true;
      });
      socket = tlsSocket;
    } else {
      socket = net.connect({ host, port });
    }
    this.attach(socket);
  }

  private attach(socket: net.Socket): void {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onSocketData(socket, chunk));
    socket.on('error', (error: Error) => this.onSocketError(socket, error));
    socket.on('close', () => this.onSocketClose(socket));
  }

  private onSocketData(socket: net.Socket, chunk: Buffer): void {
    if (socket !== this.socket || this.upgrading) return;
    let replies: SmtpReply[];
    try {
      replies = this.parser.push(chunk);
    } catch (error) {
      this.fail(error as SmtpError, false);
      return;
    }
    for (const reply of replies) {
      // After the 220 to STARTTLS, whatever else arrived in the same chunk is discarded unread
      // (and the parser was reset): only what comes through TLS counts.
      if (this.upgrading) return;
      for (const [i, line] of reply.lines.entries()) {
        this.log('server', `${reply.code}${i < reply.lines.length - 1 ? '-' : ' '}${line}`);
      }
      if (this.settled) continue;
      const expected = this.expected.shift();
      if (expected === undefined) {
        this.fail(
          this.replyError('EPROTOCOL', 'unexpected reply from the server', reply, 'none'),
          false,
        );
        return;
      }
      if (reply.code === 421) {
        this.fail(
          this.replyError(
            'ECONNECTION',
            'the server is closing the connection',
            reply,
            expected.command,
          ),
          false,
        );
        return;
      }
      try {
        expected.handle(reply);
      } catch (error) {
        this.fail(
          error instanceof SmtpError
            ? error
            : new SmtpError('EPROTOCOL', String(error), { cause: error }),
          true,
        );
      }
    }
  }

  private onSocketError(socket: net.Socket, error: Error & { code?: string }): void {
    if (socket !== this.socket) return;
    const code: SmtpErrorCode = this.handshaking ? 'ETLS' : 'ECONNECTION';
    const what = this.handshaking ? 'TLS handshake' : 'connection';
    const hint =
      error.code === 'ERR_SSL_WRONG_VERSION_NUMBER' && this.config.secure
        ? ' (the server does not speak implicit TLS on this port; for STARTTLS use secure: false, usually port 587)'
        : '';
    const message = `${what} with ${this.config.host}:${this.config.port} failed: ${error.message.trim()}${hint}`;
    const command = this.pending() ?? (this.upgrading ? 'STARTTLS' : undefined);
    this.fail(new SmtpError(code, message, { cause: error, command }), false);
  }

  private onSocketClose(socket: net.Socket): void {
    if (socket !== this.socket || this.settled) return;
    const message = `connection closed by ${this.config.host}:${this.config.port} while waiting for the reply to ${this.pending() ?? 'nothing'}`;
    this.fail(new SmtpError('ECONNECTION', message, { command: this.pending() }), false);
  }

  private onTimeout(): void {
    const message = `timed out after ${this.config.timeoutMs} ms waiting for the reply to ${this.pending() ?? 'nothing'}`;
    this.fail(new SmtpError('ETIMEDOUT', message, { command: this.pending() }), false);
  }

  private pending(): string | undefined {
    return this.expected[0]?.command;
  }

  private log(direction: 'client' | 'server', line: string): void {
    try {
      this.config.transcript?.(direction, line);
    } catch {
      // A failing logger must not break delivery.
    }
  }

  /** Writes one command and queues the handler of its reply. `shown` replaces it in logs and errors. */
  private command(line: string, handle: (reply: SmtpReply) => void, shown: string = line): void {
    this.expect(shown, handle);
    this.log('client', shown);
    this.socket?.write(`${line}\r\n`);
  }

  private expect(command: string, handle: (reply: SmtpReply) => void): void {
    this.expected.push({ command, handle });
  }

  private replyError(
    code: SmtpErrorCode,
    what: string,
    reply: SmtpReply,
    command: string,
  ): SmtpError {
    const response = formatReply(reply);
    return new SmtpError(code, `${what}: ${response} (reply to ${command})`, {
      response,
      responseCode: reply.code,
      command,
    });
  }

  private succeed(result: TransactionResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.resolve(result);
    this.quit();
  }

  /** Rejects the send; says QUIT first when the server is still talking to us (`polite`), else drops the socket. */
  private fail(error: SmtpError, polite: boolean): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(error);
    if (polite && !this.upgrading && !this.handshaking) this.quit();
    else this.socket?.destroy();
  }

  private quit(): void {
    const socket = this.socket;
    this.expected.length = 0;
    if (socket === undefined || socket.destroyed) return;
    if (socket.writable) {
      this.log('client', 'QUIT');
      socket.end('QUIT\r\n');
    }
    const timer = setTimeout(() => socket.destroy(), QUIT_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  }

  // ---------------------------------------------------------------- replies

  private onGreeting(reply: SmtpReply): void {
    if (reply.code !== 220)
      throw this.replyError('EPROTOCOL', 'the server did not greet with 220', reply, GREETING);
    this.ehlo();
  }

  private ehlo(): void {
    this.command(`EHLO ${this.config.hostname}`, (reply) => this.onEhlo(reply));
  }

  private onEhlo(reply: SmtpReply): void {
    if (reply.code === 250) {
      this.capabilities = parseEhloReply(reply.lines);
      this.afterHello();
    } else if (reply.code >= 500) {
      // An RFC 821 server: say HELO instead, and assume no extensions.
      this.command(`HELO ${this.config.hostname}`, (helo) => this.onHelo(helo));
    } else {
      throw this.replyError(
        'EPROTOCOL',
        'the server refused EHLO',
        reply,
        `EHLO ${this.config.hostname}`,
      );
    }
  }

  private onHelo(reply: SmtpReply): void {
    if (reply.code !== 250) {
      throw this.replyError(
        'EPROTOCOL',
        'the server refused EHLO and HELO',
        reply,
        `HELO ${this.config.hostname}`,
      );
    }
    this.capabilities = NO_CAPABILITIES;
    this.afterHello();
  }

  private afterHello(): void {
    if (!this.encrypted && this.capabilities.startTls) {
      this.command('STARTTLS', (reply) => this.onStartTls(reply));
    } else if (this.config.auth !== undefined) {
      this.authenticate(this.config.auth);
    } else {
      this.mailFrom();
    }
  }

  private onStartTls(reply: SmtpReply): void {
    if (reply.code !== 220)
      throw this.replyError(
        'ETLS',
        'the server advertised STARTTLS but refused it',
        reply,
        'STARTTLS',
      );
    const plain = this.socket;
    if (plain === undefined) return;
    // STARTTLS injection defence (CVE-2011-0411 and kin): anything the server (or a man in the
    // middle) sent after this reply and before the handshake is dropped, never parsed.
    this.upgrading = true;
    this.parser.reset();
    this.capabilities = NO_CAPABILITIES;
    this.handshaking = true;
    const secure = tls.connect({ ...this.tlsOptions(), socket: plain });
    secure.once('secureConnect', () => {
      this.upgrading = false;
      this.handshaking = false;
      this.encrypted = true;
      if (!this.settled) this.ehlo();
    });
    this.attach(secure);
  }

  private authenticate(auth: { readonly user: string; readonly pass: string }): void {
    if (!this.encrypted && !isLoopbackAddress(this.socket?.remoteAddress)) {
      throw new SmtpError(
        'ETLS',
        `refusing to send credentials over an unencrypted connection to ${this.config.host}:${this.config.port}: ` +
          'the server does not offer STARTTLS; use secure: true (implicit TLS, usually port 465) or a server that offers STARTTLS',
        { command: 'AUTH' },
      );
    }
    if (this.capabilities.authMechanisms.has('PLAIN')) {
      const payload = Buffer.from(`\0${auth.user}\0${auth.pass}`, 'utf8').toString('base64');
      this.command(
        `AUTH PLAIN ${payload}`,
        (reply) => this.onAuth(reply, 'AUTH PLAIN ****'),
        'AUTH PLAIN ****',
      );
    } else {
      this.command('AUTH LOGIN', (reply) => this.onAuthLogin(reply, auth));
    }
  }

  /** The reply to `AUTH LOGIN`: 334 asks for the user name. */
  private onAuthLogin(
    reply: SmtpReply,
    auth: { readonly user: string; readonly pass: string },
  ): void {
    if (reply.code !== 334)
      throw this.replyError('EAUTH', 'the server refused AUTH LOGIN', reply, 'AUTH LOGIN');
    const user = Buffer.from(auth.user, 'utf8').toString('base64');
    this.command(user, (next) => this.onAuthUser(next, auth), '****');
  }

  /** The reply to the user name of AUTH LOGIN: 334 asks for the password. */
  private onAuthUser(
    reply: SmtpReply,
    auth: { readonly user: string; readonly pass: string },
  ): void {
    if (reply.code !== 334)
      throw this.replyError('EAUTH', 'authentication failed', reply, 'AUTH LOGIN ****');
    const pass = Buffer.from(auth.pass, 'utf8').toString('base64');
    this.command(pass, (next) => this.onAuth(next, 'AUTH LOGIN ****'), '****');
  }

  /** The final reply of AUTH PLAIN or AUTH LOGIN: 235 means authenticated. */
  private onAuth(reply: SmtpReply, command: string): void {
    if (reply.code !== 235) throw this.replyError('EAUTH', 'authentication failed', reply, command);
    this.mailFrom();
  }

  private mailFrom(): void {
    const { maxSize } = this.capabilities;
    const size = Buffer.byteLength(this.data);
    if (maxSize !== undefined && maxSize > 0 && size > maxSize) {
      throw new SmtpError(
        'EMESSAGE',
        `the message is ${size} bytes, more than the server's limit of ${maxSize}`,
        {
          command: 'MAIL FROM',
        },
      );
    }
    const sizeParam = maxSize === undefined ? '' : ` SIZE=${size}`;
    const line = `MAIL FROM:<${this.envelope.from}>${sizeParam}`;
    this.command(line, (reply) => this.onMailFrom(reply, line));
  }

  private onMailFrom(reply: SmtpReply, command: string): void {
    if (reply.code !== 250)
      throw this.replyError('EENVELOPE', 'the server rejected the sender', reply, command);
    this.rcptTo();
  }

  private rcptTo(): void {
    const address = this.envelope.to[this.next];
    if (address !== undefined) {
      const line = `RCPT TO:<${address}>`;
      this.command(line, (reply) => this.onRcptTo(reply, address, line));
      return;
    }
    if (this.accepted.length === 0) {
      throw new SmtpError(
        'EENVELOPE',
        `the server rejected every recipient: ${this.rejections.join('; ')}`,
        this.lastRejection,
      );
    }
    this.command('DATA', (reply) => this.onData(reply));
  }

  private onRcptTo(reply: SmtpReply, address: string, command: string): void {
    this.next += 1;
    if (reply.code === 250 || reply.code === 251) {
      this.accepted.push(address);
    } else {
      const response = formatReply(reply);
      this.rejected.push(address);
      this.rejections.push(`${address}: ${response}`);
      this.lastRejection = { response, responseCode: reply.code, command };
    }
    this.rcptTo();
  }

  private onData(reply: SmtpReply): void {
    if (reply.code !== 354)
      throw this.replyError('EENVELOPE', 'the server refused DATA', reply, 'DATA');
    this.expect(END_OF_DATA, (end) => this.onDataEnd(end));
    this.log('client', `(message: ${Buffer.byteLength(this.data)} bytes)`);
    this.socket?.write(this.data);
  }

  private onDataEnd(reply: SmtpReply): void {
    if (reply.code !== 250)
      throw this.replyError('EMESSAGE', 'the server rejected the message', reply, END_OF_DATA);
    this.succeed({ accepted: [...this.accepted], rejected: [...this.rejected] });
  }
}
