import { SmtpError } from './errors';
import { createMailer, NoopMailer, SmtpMailer } from './mailer';

describe('SmtpMailer construction', () => {
  test('validates the config', () => {
    expect(() => new SmtpMailer({ host: '', from: 'a@example.com' })).toThrow(SmtpError);
    expect(createMailer({ host: 'smtp.example.com', from: 'a@example.com' })).toBeInstanceOf(
      SmtpMailer,
    );
  });

  test('tlsRejectUnauthorized: false only logs a warning', () => {
    const logger = { info: jest.fn(), warn: jest.fn() };
    new SmtpMailer({
      host: 'smtp.example.com',
      from: 'a@example.com',
      tlsRejectUnauthorized: false,
      logger,
    });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/still validated.*tls\.ca/s);
    new SmtpMailer({
      host: 'smtp.example.com',
      from: 'a@example.com',
      tlsRejectUnauthorized: true,
      logger,
    });
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  test('send rejects invalid messages before connecting', async () => {
    // Port 9 on a documentation address would time out if it tried to connect.
    const mailer = new SmtpMailer({
      host: '192.0.2.1',
      port: 9,
      from: 'a@example.com',
      timeoutMs: 60_000,
    });
    await expect(
      mailer.send({ to: 'b@example.com', subject: 'x\r\ny', text: '' }),
    ).rejects.toMatchObject({ code: 'EMESSAGE' });
  });
});

describe('NoopMailer', () => {
  test('logs the message and returns every recipient as accepted', async () => {
    const logger = { info: jest.fn(), warn: jest.fn() };
    const result = await new NoopMailer(logger).send({
      to: ['a@example.com', 'B <b@example.com>'],
      subject: 'Link',
      text: 'https://app.example.com/x',
    });
    expect(result.accepted).toEqual(['a@example.com', 'b@example.com']);
    expect(result.rejected).toEqual([]);
    expect(result.messageId).toMatch(/^<[0-9a-f]{32}@localhost>$/);
    expect(logger.info).toHaveBeenCalledWith(
      expect.stringContaining('a@example.com, b@example.com'),
      expect.objectContaining({ text: 'https://app.example.com/x' }),
    );
  });

  test('accepts a plain function as logger and validates like SmtpMailer', async () => {
    const log = jest.fn();
    const mailer = new NoopMailer(log);
    await mailer.send({ to: 'a@example.com', subject: 'x', text: 'y', from: 'n@example.org' });
    expect(log).toHaveBeenCalledTimes(1);
    await expect(
      mailer.send({ to: 'a@example.com\r\nBcc: b@example.com', subject: 'x', text: 'y' }),
    ).rejects.toMatchObject({ code: 'EMESSAGE' });
  });
});
