/**
 * The email listener against a real SMTP peer (smtp-server on 127.0.0.1, port 0), through an
 * SmtpMailer built from an `smtp` configuration.
 */
import { NoopMailer, type Mailer, type SendInput } from '@svc/smtp';
import { parseMail, startPeer, type Peer } from '@svc/smtp/testing';
import { createEventBus, type EventBus } from '../events';
import type { AuthConfig, AuthEventType } from '../types';
import { installEmailListener } from './index';

function captureLogger() {
  const errors: { obj: unknown; msg?: string }[] = [];
  const warns: { obj: unknown; msg?: string }[] = [];
  const infos: { obj: unknown; msg?: string }[] = [];
  return {
    errors,
    warns,
    infos,
    logger: {
      error: (obj: unknown, msg?: string) => errors.push({ obj, msg }),
      warn: (obj: unknown, msg?: string) => warns.push({ obj, msg }),
      info: (obj: unknown, msg?: string) => infos.push({ obj, msg }),
    },
  };
}

const FROM = 'Acme <no-reply@acme.example>';
const BASE = 'https://app.acme.example';

function config(peer: Peer, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    jwtSecret: 'x'.repeat(32),
    emailBaseUrl: BASE,
    smtp: { host: '127.0.0.1', port: peer.port, from: FROM, timeoutMs: 5000 },
    branding: {
      appName: 'Acme Cloud',
      brandColor: '#ff6600',
      logoUrl: 'https://cdn.acme.example/logo.png',
    },
    ...extra,
  };
}

let peer: Peer;
let bus: EventBus;
let uninstall: (() => void) | undefined;
beforeEach(async () => {
  peer = await startPeer();
  bus = createEventBus();
});
afterEach(async () => {
  uninstall?.();
  uninstall = undefined;
  await bus.settle();
  await peer.close();
});

const TOKEN = 'tok/with+special=chars&"<>';
const ENCODED = encodeURIComponent(TOKEN);

describe('the email listener with a real SMTP peer', () => {
  const cases: [AuthEventType, Record<string, string>, string, RegExp, string | undefined][] = [
    [
      'EmailVerificationRequested',
      { userId: 'u', email: 'ann@example.com', verificationToken: TOKEN },
      'ann@example.com',
      /^Acme Cloud: verify your email address$/,
      `${BASE}/auth/verify?token=${ENCODED}`,
    ],
    [
      'PasswordResetRequested',
      { userId: 'u', email: 'ann@example.com', resetToken: TOKEN },
      'ann@example.com',
      /^Acme Cloud: reset your password$/,
      `${BASE}/auth/reset?token=${ENCODED}`,
    ],
    [
      'MagicLinkRequested',
      { userId: 'u', email: 'ann@example.com', magicLinkToken: TOKEN },
      'ann@example.com',
      /^Acme Cloud: your sign-in link$/,
      `${BASE}/auth/magic?token=${ENCODED}`,
    ],
    [
      'MagicLinkSignupRequested',
      { pendingEmail: 'new@example.com', magicLinkToken: TOKEN },
      'new@example.com',
      /^Acme Cloud: finish creating your account$/,
      `${BASE}/auth/magic?token=${ENCODED}`,
    ],
    [
      'MagicCodeRequested',
      { userId: 'u', email: 'ann@example.com', magicCode: '042917' },
      'ann@example.com',
      /^Acme Cloud: your sign-in code$/,
      undefined,
    ],
  ];

  it.each(cases)(
    '%s → one email with From, To, Subject, branding and the link',
    async (eventType, fields, to, subject, link) => {
      const { logger, errors, warns, infos } = captureLogger();
      uninstall = installEmailListener(bus, config(peer), { logger, development: true });
      bus.emit({ eventType, ...fields });
      await bus.settle();
      expect(errors).toEqual([]);
      // With SMTP configured, even in development, no log line holds the recipient, a link or a token.
      const logged = JSON.stringify([warns, infos]);
      for (const secret of [to, TOKEN, ENCODED, '042917']) expect(logged).not.toContain(secret);
      expect(warns).toEqual([]);
      expect(peer.received).toHaveLength(1);
      const got = peer.received[0]!;
      expect(got.from).toBe('no-reply@acme.example');
      expect(got.to).toEqual([to]);
      const mail = parseMail(got.raw);
      expect(mail.headers.get('from')).toEqual([FROM]);
      expect(mail.headers.get('to')).toEqual([to]);
      expect(mail.subject).toMatch(subject);
      expect(mail.html).toBeDefined();
      const html = mail.html!;
      expect(html).toContain('Acme Cloud');
      expect(html).toContain('#ff6600');
      expect(html).toContain('<img src="https://cdn.acme.example/logo.png" alt="Acme Cloud"');
      expect(mail.text).toContain('Acme Cloud');
      if (link !== undefined) {
        expect(mail.text).toContain(link);
        expect(html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      } else {
        expect(mail.text).toMatch(/^042917$/m);
        expect(html).toContain('042917');
      }
      // the raw token never appears unencoded in the HTML
      expect(html).not.toContain(TOKEN);
    },
  );

  it('notification-only kinds send nothing', async () => {
    const { logger, errors } = captureLogger();
    uninstall = installEmailListener(bus, config(peer), { logger });
    for (const eventType of ['EmailVerified', 'IdentityAuthenticated', 'IdentityCreated'] as const)
      bus.emit({ eventType, userId: 'u', email: 'ann@example.com' });
    await bus.settle();
    expect(peer.received).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the magic link honours magicLinkUrlTemplate, for the built-in and in the context of an override', async () => {
    const seen: unknown[] = [];
    uninstall = installEmailListener(
      bus,
      config(peer, { magicLinkUrlTemplate: 'https://login.acme.example/m/{token}?src=mail' }),
      {
        logger: captureLogger().logger,
      },
    );
    bus.emit({ eventType: 'MagicLinkRequested', email: 'ann@example.com', magicLinkToken: 'a b' });
    await bus.settle();
    expect(parseMail(peer.received[0]!.raw).text).toContain(
      'https://login.acme.example/m/a%20b?src=mail',
    );
    uninstall();

    uninstall = installEmailListener(
      bus,
      config(peer, {
        magicLinkUrlTemplate: 'https://login.acme.example/m/{token}',
        emailTemplates: {
          magicLink: (ctx) => {
            seen.push(ctx);
            return {
              subject: 'custom link',
              text: `go ${ctx.link}`,
              html: `<a href="${ctx.link}">go</a>`,
            };
          },
        },
      }),
      { logger: captureLogger().logger },
    );
    bus.emit({
      eventType: 'MagicLinkSignupRequested',
      pendingEmail: 'new@example.com',
      magicLinkToken: 'x/y',
    });
    await bus.settle();
    expect(seen).toEqual([
      expect.objectContaining({
        baseUrl: BASE,
        magicLinkToken: 'x/y',
        link: 'https://login.acme.example/m/x%2Fy',
        recipient: 'new@example.com',
        branding: {
          appName: 'Acme Cloud',
          brandColor: '#ff6600',
          logoUrl: 'https://cdn.acme.example/logo.png',
        },
      }),
    ]);
    const mail = parseMail(peer.received[1]!.raw);
    expect(mail.subject).toBe('custom link');
    expect(mail.text).toBe('go https://login.acme.example/m/x%2Fy');
  });

  it('uses template overrides with their contexts; an undefined renderer falls back to the built-in', async () => {
    const contexts: Record<string, unknown> = {};
    uninstall = installEmailListener(
      bus,
      config(peer, {
        emailTemplates: {
          verification: (ctx) => {
            contexts.verification = ctx;
            return {
              subject: `Verify for ${ctx.branding.appName}`,
              text: `token ${ctx.verificationToken}`,
              html: '<p>v</p>',
            };
          },
          passwordReset: undefined,
          magicCode: (ctx) => {
            contexts.magicCode = ctx;
            return {
              subject: 'Code',
              text: `code ${ctx.code} for ${ctx.recipient}`,
              html: `<b>${ctx.code}</b>`,
            };
          },
        },
      }),
      { logger: captureLogger().logger },
    );
    bus.emit({
      eventType: 'EmailVerificationRequested',
      email: 'ann@example.com',
      verificationToken: 'vt',
    });
    await bus.settle();
    bus.emit({ eventType: 'PasswordResetRequested', email: 'ann@example.com', resetToken: 'rt' });
    await bus.settle();
    bus.emit({ eventType: 'MagicCodeRequested', email: 'ann@example.com', magicCode: '123456' });
    await bus.settle();

    const [v, r, c] = peer.received.map((m) => parseMail(m.raw));
    expect(v!.subject).toBe('Verify for Acme Cloud');
    expect(v!.text).toBe('token vt');
    expect(v!.html).toBe('<p>v</p>');
    expect(contexts.verification).toEqual({
      branding: expect.objectContaining({ appName: 'Acme Cloud' }),
      recipient: 'ann@example.com',
      baseUrl: BASE,
      verificationToken: 'vt',
    });
    expect(r!.subject).toBe('Acme Cloud: reset your password'); // built-in
    expect(r!.text).toContain(`${BASE}/auth/reset?token=rt`);
    expect(c!.subject).toBe('Code');
    expect(c!.text).toBe('code 123456 for ann@example.com');
    expect(contexts.magicCode).toEqual({
      branding: expect.objectContaining({ appName: 'Acme Cloud' }),
      recipient: 'ann@example.com',
      code: '123456',
    });
  });

  it('a renderer that throws or returns garbage is logged and the built-in is sent', async () => {
    const { logger, errors } = captureLogger();
    uninstall = installEmailListener(
      bus,
      config(peer, {
        emailTemplates: {
          verification: () => {
            throw new Error('template bug');
          },
          passwordReset: () => ({ subject: 'x' }) as never,
        },
      }),
      { logger },
    );
    bus.emit({
      eventType: 'EmailVerificationRequested',
      email: 'ann@example.com',
      verificationToken: 'vt',
    });
    bus.emit({ eventType: 'PasswordResetRequested', email: 'ann@example.com', resetToken: 'rt' });
    await bus.settle();
    expect(peer.received.map((m) => parseMail(m.raw).subject).sort()).toEqual([
      'Acme Cloud: reset your password',
      'Acme Cloud: verify your email address',
    ]);
    expect(errors.map((e) => e.msg)).toEqual([
      expect.stringMatching(/template failed/),
      expect.stringMatching(/template failed/),
    ]);
  });

  it('a refused recipient is logged, never thrown, and later mail still goes', async () => {
    await peer.close();
    peer = await startPeer({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('refused')) callback(new Error('550 no such user'));
        else callback();
      },
    });
    const { logger, errors } = captureLogger();
    uninstall = installEmailListener(bus, config(peer), { logger });
    expect(() =>
      bus.emit({
        eventType: 'PasswordResetRequested',
        email: 'refused@example.com',
        resetToken: 'SECRET-RESET',
      }),
    ).not.toThrow();
    await expect(bus.settle()).resolves.toBeUndefined();
    expect(peer.received).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toBe('auth email could not be sent');
    expect(errors[0]!.obj).toMatchObject({
      eventType: 'PasswordResetRequested',
      err: { name: 'SmtpError', code: 'EENVELOPE' },
    });
    expect(JSON.stringify(errors)).not.toContain('SECRET-RESET');

    bus.emit({ eventType: 'PasswordResetRequested', email: 'ok@example.com', resetToken: 'rt' });
    await bus.settle();
    expect(peer.received).toHaveLength(1);
  });

  it('an unreachable SMTP server is logged, never thrown', async () => {
    // The new peer starts while the old one still holds its port, so the port cannot be reused.
    const old = peer;
    peer = await startPeer();
    const port = old.port;
    await old.close();
    const { logger, errors } = captureLogger();
    uninstall = installEmailListener(
      bus,
      {
        jwtSecret: 'x',
        emailBaseUrl: BASE,
        smtp: { host: '127.0.0.1', port, from: FROM, timeoutMs: 2000 },
      },
      { logger },
    );
    bus.emit({ eventType: 'MagicCodeRequested', email: 'ann@example.com', magicCode: '111111' });
    await bus.settle();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.obj).toMatchObject({
      err: { code: expect.stringMatching(/^E(CONNECTION|TIMEDOUT)$/) },
    });
  });
});

describe('registration rules (spec Events item 6)', () => {
  it('smtp without emailBaseUrl: an error is logged at construction and nothing is registered', async () => {
    const { logger, errors } = captureLogger();
    const spy = jest.spyOn(bus, 'on');
    uninstall = installEmailListener(
      bus,
      { jwtSecret: 'x', smtp: { host: '127.0.0.1', port: peer.port, from: FROM } },
      { logger },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/emailBaseUrl/);
    expect(spy).not.toHaveBeenCalled();
    bus.emit({ eventType: 'PasswordResetRequested', email: 'ann@example.com', resetToken: 'rt' });
    await bus.settle();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(peer.received).toEqual([]);
  });

  // Issue 8 ("First-run care"): with no SMTP configured, POST /auth/reset said a link was sent
  // and nothing happened. In development each email is now logged with its links.
  describe('no mailer configured', () => {
    const emitAll = () => {
      bus.emit({
        eventType: 'PasswordResetRequested',
        email: 'ann@example.com',
        resetToken: TOKEN,
      });
      bus.emit({
        eventType: 'EmailVerificationRequested',
        email: 'ann@example.com',
        verificationToken: 'vt',
      });
      bus.emit({ eventType: 'MagicCodeRequested', email: 'ann@example.com', magicCode: '042917' });
    };

    it('development, emailBaseUrl set: a warning at construction, then recipient, subject and links of each email, not its text', async () => {
      const { logger, errors, warns, infos } = captureLogger();
      uninstall = installEmailListener(
        bus,
        { jwtSecret: 'x', emailBaseUrl: BASE },
        { logger, development: true },
      );
      expect(warns.map((w) => w.msg)).toEqual([
        'auth email is not delivered: no SMTP server is configured (auth config smtp, TOML [auth.smtp]); each email is logged here instead, with its links',
      ]);
      emitAll();
      await bus.settle();
      expect(errors).toEqual([]);
      expect(infos.map((i) => i.msg)).toEqual([
        `auth email not sent (no SMTP configured) to ann@example.com: "Your account: reset your password" ${BASE}/auth/reset?token=${ENCODED}`,
        `auth email not sent (no SMTP configured) to ann@example.com: "Your account: verify your email address" ${BASE}/auth/verify?token=vt`,
        'auth email not sent (no SMTP configured) to ann@example.com: "Your account: your sign-in code" code 042917',
      ]);
      expect(infos[0]!.obj).toEqual({
        eventType: 'PasswordResetRequested',
        eventId: expect.any(String),
        to: 'ann@example.com',
        subject: 'Your account: reset your password',
        links: [`${BASE}/auth/reset?token=${ENCODED}`],
      });
      // the token appears inside the link only, and neither the text nor the HTML is logged
      const logged = JSON.stringify(infos);
      expect(logged.split(ENCODED)).toHaveLength(3); // once in the message, once in links
      expect(logged).not.toContain(TOKEN);
      expect(logged).not.toMatch(/<html|Choose a new password/);
      expect(peer.received).toEqual([]);
    });

    it('development, no emailBaseUrl either (the default server): links are relative', async () => {
      const { logger, warns, infos } = captureLogger();
      uninstall = installEmailListener(bus, { jwtSecret: 'x' }, { logger, development: true });
      expect(warns[0]!.msg).toMatch(
        /each email is logged here instead, with its links \(relative until emailBaseUrl is set\)$/,
      );
      bus.emit({ eventType: 'PasswordResetRequested', email: 'ann@example.com', resetToken: 'rt' });
      bus.emit({ eventType: 'MagicLinkRequested', email: 'ann@example.com', magicLinkToken: 'ml' });
      await bus.settle();
      expect(infos.map((i) => (i.obj as { links: string[] }).links)).toEqual([
        ['/auth/reset?token=rt'],
        ['/auth/magic?token=ml'],
      ]);
    });

    it('production, emailBaseUrl set: the no-op mailer logs the event, never the recipient or a token', async () => {
      const { logger, errors, warns, infos } = captureLogger();
      const sendSpy = jest.spyOn(NoopMailer.prototype, 'send');
      try {
        uninstall = installEmailListener(
          bus,
          { jwtSecret: 'x', emailBaseUrl: BASE },
          { logger, development: false },
        );
        expect(warns.map((w) => w.msg)).toEqual([
          'auth email is not delivered: no SMTP server is configured (auth config smtp, TOML [auth.smtp]); tokens reach webhook subscribers only',
        ]);
        emitAll();
        await bus.settle();
        expect(sendSpy).toHaveBeenCalledTimes(3);
        expect(await sendSpy.mock.results[0]!.value).toEqual({
          accepted: ['ann@example.com'],
          rejected: [],
          messageId: expect.stringMatching(/^<.+@.+>$/),
        });
      } finally {
        sendSpy.mockRestore();
      }
      expect(errors).toEqual([]);
      expect(infos.map((i) => i.msg)).toEqual(
        Array(3).fill('auth email not sent: no SMTP server is configured'),
      );
      const logged = JSON.stringify([warns, infos]);
      for (const secret of ['ann@example.com', TOKEN, ENCODED, 'vt', '042917'])
        expect(logged).not.toContain(secret);
    });

    it('production, no emailBaseUrl: the warning, then nothing registered', () => {
      const { logger, warns } = captureLogger();
      const spy = jest.spyOn(bus, 'on');
      uninstall = installEmailListener(bus, { jwtSecret: 'x' }, { logger, development: false });
      expect(spy).not.toHaveBeenCalled();
      expect(warns).toHaveLength(1);
    });

    it('development is NODE_ENV other than production', async () => {
      const before = process.env.NODE_ENV;
      try {
        for (const [env, development] of [
          ['production', false],
          ['development', true],
          [undefined, true],
        ] as const) {
          if (env === undefined) delete process.env.NODE_ENV;
          else process.env.NODE_ENV = env;
          const { logger, warns } = captureLogger();
          installEmailListener(createEventBus(), { jwtSecret: 'x' }, { logger })();
          expect(warns[0]!.obj).toEqual({ development });
        }
      } finally {
        process.env.NODE_ENV = before;
      }
    });
  });

  it('an injected mailer replaces the one smtp would make', async () => {
    const sent: SendInput[] = [];
    const mailer: Mailer = {
      send: async (input) => {
        sent.push(input);
        return { accepted: [String(input.to)], rejected: [], messageId: '<1@test>' };
      },
    };
    uninstall = installEmailListener(bus, config(peer), { logger: captureLogger().logger, mailer });
    bus.emit({ eventType: 'MagicCodeRequested', email: 'ann@example.com', magicCode: '654321' });
    await bus.settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'ann@example.com',
      subject: 'Acme Cloud: your sign-in code',
    });
    expect(peer.received).toEqual([]);
  });

  it('uninstall stops mailing', async () => {
    uninstall = installEmailListener(bus, config(peer), { logger: captureLogger().logger });
    uninstall();
    bus.emit({ eventType: 'MagicCodeRequested', email: 'ann@example.com', magicCode: '654321' });
    await bus.settle();
    expect(peer.received).toEqual([]);
  });

  it('an event missing its recipient or token is logged, not mailed', async () => {
    const { logger, errors } = captureLogger();
    uninstall = installEmailListener(bus, config(peer), { logger });
    bus.emit({ eventType: 'PasswordResetRequested', email: 'ann@example.com' });
    bus.emit({ eventType: 'MagicLinkSignupRequested', magicLinkToken: 't' });
    await bus.settle();
    expect(peer.received).toEqual([]);
    expect(errors).toHaveLength(2);
  });

  it.each<[string, Partial<AuthConfig>, RegExp]>([
    ['bad branding', { branding: { brandColor: 'red' } }, /brandColor/],
    [
      'bad magic-link template',
      { magicLinkUrlTemplate: 'http://localhost.evil.com/{token}' },
      /magicLinkUrlTemplate/,
    ],
    ['bad emailBaseUrl', { emailBaseUrl: 'app.acme.example' }, /emailBaseUrl/],
    [
      'unknown template',
      { emailTemplates: { welcome: () => ({ subject: '', text: '', html: '' }) } as never },
      /emailTemplates\.welcome/,
    ],
    [
      'non-function template',
      { emailTemplates: { magicCode: 'hi' } as never },
      /emailTemplates\.magicCode must be a function/,
    ],
  ])('refuses %s at construction', (_, extra, message) => {
    expect(() =>
      installEmailListener(bus, config(peer, extra), { logger: captureLogger().logger }),
    ).toThrow(message);
  });
});
