import { resolveConfig, type SmtpConfig } from './config';
import { SmtpError } from './errors';

const minimal: SmtpConfig = { host: 'smtp.example.com', from: 'no-reply@example.com' };

function configError(config: unknown): SmtpError {
  try {
    resolveConfig(config as SmtpConfig);
  } catch (error) {
    expect(error).toBeInstanceOf(SmtpError);
    return error as SmtpError;
  }
  throw new Error('expected resolveConfig to throw');
}

describe('resolveConfig', () => {
  test('applies the spec defaults', () => {
    const config = resolveConfig(minimal);
    expect(config).toMatchObject({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      auth: undefined,
      hostname: 'localhost',
      replyTo: undefined,
      timeoutMs: 30000,
      from: { address: 'no-reply@example.com', name: undefined },
      messageIdDomain: 'example.com',
    });
    expect(config.logger).toBe(console);
  });

  test('port defaults to 465 when secure', () => {
    expect(resolveConfig({ ...minimal, secure: true }).port).toBe(465);
    expect(resolveConfig({ ...minimal, secure: true, port: 2465 }).port).toBe(2465);
  });

  test('Message-IDs use a configured hostname', () => {
    expect(resolveConfig({ ...minimal, hostname: 'app.example.org' }).messageIdDomain).toBe(
      'app.example.org',
    );
  });

  test.each<[string, unknown, RegExp]>([
    ['no host', { from: 'a@example.com' }, /host is required/],
    ['empty host', { ...minimal, host: ' ' }, /host is required/],
    ['host with CRLF', { ...minimal, host: 'smtp.example.com\r\nRSET' }, /white space or control/],
    ['no from', { host: 'smtp.example.com' }, /from is required/],
    ['bad from', { ...minimal, from: 'not an address' }, /from: invalid address/],
    [
      'from with CRLF',
      { ...minimal, from: 'a@example.com\r\nBcc: x@example.com' },
      /from: CR and LF/,
    ],
    ['port 0', { ...minimal, port: 0 }, /port must be an integer from 1 to 65535/],
    ['port 70000', { ...minimal, port: 70000 }, /port must be/],
    ['port 25.5', { ...minimal, port: 25.5 }, /port must be/],
    ['port as string', { ...minimal, port: '25' }, /port must be/],
    ['secure as string', { ...minimal, secure: 'yes' }, /secure must be a boolean/],
    ['auth without user', { ...minimal, auth: { pass: 'x' } }, /auth.user/],
    ['auth without pass', { ...minimal, auth: { user: 'x' } }, /auth.pass/],
    ['auth with NUL', { ...minimal, auth: { user: 'x\0y', pass: 'p' } }, /NUL/],
    [
      'hostname with CRLF',
      { ...minimal, hostname: 'a\r\nMAIL FROM:<x@example.com>' },
      /hostname must be/,
    ],
    ['hostname with space', { ...minimal, hostname: 'a b' }, /hostname must be/],
    ['replyTo with LF', { ...minimal, replyTo: 'a@example.com\nX: y' }, /replyTo: CR and LF/],
    ['timeout 0', { ...minimal, timeoutMs: 0 }, /timeoutMs must be/],
    ['timeout NaN', { ...minimal, timeoutMs: Number.NaN }, /timeoutMs must be/],
    ['timeout too large', { ...minimal, timeoutMs: 2 ** 31 }, /timeoutMs must be/],
    [
      'tlsRejectUnauthorized as string',
      { ...minimal, tlsRejectUnauthorized: 'false' },
      /tlsRejectUnauthorized/,
    ],
    ['tls.ca as number', { ...minimal, tls: { ca: 1 } }, /tls.ca/],
    ['logger without warn', { ...minimal, logger: { info() {} } }, /logger/],
    ['transcript not a function', { ...minimal, transcript: 'yes' }, /transcript/],
  ])('refuses %s', (_name, config, message) => {
    const error = configError(config);
    expect(error.code).toBe('ECONFIG');
    expect(error.message).toMatch(/^invalid SMTP config: /);
    expect(error.message).toMatch(message);
  });

  test('refuses a missing config object', () => {
    expect(configError(undefined).message).toMatch(/expected a config object/);
  });
});
