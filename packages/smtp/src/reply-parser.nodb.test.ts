import { SmtpError } from './errors';
import { formatReply, MAX_REPLY_LINE, ReplyParser, type SmtpReply } from './reply-parser';

const feed = (parser: ReplyParser, ...chunks: string[]): SmtpReply[] =>
  chunks.flatMap((chunk) => parser.push(Buffer.from(chunk, 'utf8')));

describe('ReplyParser', () => {
  test('parses a single-line reply', () => {
    expect(feed(new ReplyParser(), '220 mx.example.com ESMTP ready\r\n')).toEqual([
      { code: 220, lines: ['mx.example.com ESMTP ready'] },
    ]);
  });

  test('collects a multi-line reply until the line with a space after the code', () => {
    const replies = feed(
      new ReplyParser(),
      '250-mx.example.com\r\n250-SIZE 1000\r\n250-STARTTLS\r\n250 AUTH PLAIN LOGIN\r\n',
    );
    expect(replies).toEqual([
      { code: 250, lines: ['mx.example.com', 'SIZE 1000', 'STARTTLS', 'AUTH PLAIN LOGIN'] },
    ]);
  });

  test('returns several replies from one chunk, in order', () => {
    const replies = feed(new ReplyParser(), '250 ok\r\n354 go ahead\r\n');
    expect(replies.map((r) => r.code)).toEqual([250, 354]);
  });

  test('accepts a code without text and a bare LF line end', () => {
    expect(feed(new ReplyParser(), '250\r\n221 bye\n')).toEqual([
      { code: 250, lines: [''] },
      { code: 221, lines: ['bye'] },
    ]);
  });

  test('gives the same replies however the bytes are split into chunks', () => {
    const text = Buffer.from(
      '250-mx.example.com grüßt\r\n250-8BITMIME\r\n250 SIZE 10\r\n550 5.1.1 nö\r\n',
      'utf8',
    );
    const whole = new ReplyParser().push(text);
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b += 7) {
        const parser = new ReplyParser();
        const got = [text.subarray(0, a), text.subarray(a, b), text.subarray(b)].flatMap((c) =>
          parser.push(c),
        );
        expect(got).toEqual(whole);
        expect(parser.hasPending).toBe(false);
      }
    }
    // Byte by byte too.
    const parser = new ReplyParser();
    const got = [...text].flatMap((byte) => parser.push(Buffer.from([byte])));
    expect(got).toEqual(whole);
  });

  test('keeps an incomplete reply until it is complete', () => {
    const parser = new ReplyParser();
    expect(feed(parser, '250-first\r\n250 sec')).toEqual([]);
    expect(parser.hasPending).toBe(true);
    expect(feed(parser, 'ond\r\n')).toEqual([{ code: 250, lines: ['first', 'second'] }]);
  });

  test('reset drops a half line and the lines of an unfinished reply', () => {
    const parser = new ReplyParser();
    feed(parser, '250-injected\r\n250 half');
    parser.reset();
    expect(parser.hasPending).toBe(false);
    expect(feed(parser, '220 clean\r\n')).toEqual([{ code: 220, lines: ['clean'] }]);
  });

  test.each([
    ['no code', 'hello\r\n'],
    ['a code out of range', '199 what\r\n'],
    ['a bad separator', '250+ok\r\n'],
    ['a short code', '25 ok\r\n'],
  ])('rejects a malformed line: %s', (_name, line) => {
    expect(() => feed(new ReplyParser(), line)).toThrow(
      expect.objectContaining({ code: 'EPROTOCOL' }),
    );
  });

  test('rejects a code that changes inside a multi-line reply', () => {
    expect(() => feed(new ReplyParser(), '250-one\r\n251 two\r\n')).toThrow(/reply code changed/);
  });

  test('rejects a line longer than the limit, even before its end arrives', () => {
    const parser = new ReplyParser();
    expect(() => parser.push(Buffer.alloc(MAX_REPLY_LINE + 10, 0x41))).toThrow(SmtpError);
  });

  test('formatReply joins lines after the code', () => {
    expect(formatReply({ code: 550, lines: ['no such user', 'sorry'] })).toBe(
      '550 no such user\nsorry',
    );
  });
});
