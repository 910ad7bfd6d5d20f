import fc from 'fast-check';

import { parseMail } from './testing';
import { MAX_LINE_OCTETS } from './header';
import { buildMessage, createMessageId, formatDate, type MessageParts } from './message';
import { normalizeLineBreaks } from './quoted-printable';

const base: MessageParts = {
  from: { address: 'no-reply@example.com', name: 'Example' },
  to: [{ address: 'ann@example.com', name: undefined }],
  subject: 'Hello',
  text: 'Hi Ann\r\n',
  messageId: '<abc@example.com>',
  date: new Date(Date.UTC(2026, 10, 21, 9, 5, 7)),
};

describe('formatDate', () => {
  test('writes RFC 5322 dates in UTC', () => {
    expect(formatDate(new Date(Date.UTC(2026, 10, 21, 9, 5, 7)))).toBe(
      'Sat, 21 Nov 2026 09:05:07 +0000',
    );
    expect(formatDate(new Date(Date.UTC(2024, 1, 29, 23, 59, 59)))).toBe(
      'Thu, 29 Feb 2024 23:59:59 +0000',
    );
  });
});

describe('createMessageId', () => {
  test('is random and carries the domain', () => {
    const a = createMessageId('example.com');
    expect(a).toMatch(/^<[0-9a-f]{32}@example\.com>$/);
    expect(createMessageId('example.com')).not.toBe(a);
  });
});

describe('buildMessage', () => {
  test('writes the headers in order and a quoted-printable text/plain body', () => {
    expect(
      buildMessage({ ...base, replyTo: { address: 'help@example.com', name: undefined } }),
    ).toBe(
      [
        'From: Example <no-reply@example.com>',
        'To: ann@example.com',
        'Reply-To: help@example.com',
        'Subject: Hello',
        'Date: Sat, 21 Nov 2026 09:05:07 +0000',
        'Message-ID: <abc@example.com>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Hi Ann',
        '',
      ].join('\r\n'),
    );
  });

  test('has no Reply-To header unless one is configured', () => {
    expect(buildMessage(base)).not.toMatch(/^Reply-To:/m);
  });

  test('is multipart/alternative when html is given', () => {
    const raw = buildMessage({ ...base, html: '<p>Hi Ann</p>', boundary: '=_b' });
    expect(raw).toContain(
      'Content-Type: multipart/alternative; boundary="=_b"\r\n\r\n--=_b\r\nContent-Type: text/plain; charset=utf-8\r\n',
    );
    expect(raw).toContain('\r\n--=_b\r\nContent-Type: text/html; charset=utf-8\r\n');
    expect(raw.endsWith('\r\n--=_b--\r\n')).toBe(true);
    const mail = parseMail(raw);
    expect(mail.text).toBe('Hi Ann\r\n');
    expect(mail.html).toBe('<p>Hi Ann</p>');
  });

  test('lists every recipient in To', () => {
    const raw = buildMessage({
      ...base,
      to: [
        { address: 'a@example.com', name: undefined },
        { address: 'b@example.com', name: 'Bé' },
      ],
    });
    expect(parseMail(raw).headers.get('to')).toEqual([
      'a@example.com, =?UTF-8?B?QsOp?= <b@example.com>',
    ]);
  });

  test('any subject, text and html survive, in 7-bit lines of at most 998 octets', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\r\n', '\n', '.', ' ', '='),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 400,
    });
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 120 }).filter((s) => !/[\r\n]/.test(s)),
        text,
        fc.option(text, { nil: undefined }),
        (subject, body, html) => {
          const raw = buildMessage({ ...base, subject, text: body, html });
          expect(raw).toMatch(/^[\x00-\x7f]*$/);
          expect(raw.endsWith('\r\n')).toBe(true);
          expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
          for (const l of raw.split('\r\n'))
            expect(Buffer.byteLength(l)).toBeLessThanOrEqual(MAX_LINE_OCTETS);
          const mail = parseMail(raw);
          expect(mail.subject).toBe(subject);
          expect(mail.text).toBe(normalizeLineBreaks(body));
          expect(mail.html).toBe(html === undefined ? undefined : normalizeLineBreaks(html));
        },
      ),
      { numRuns: 300 },
    );
  });
});
