import { envelopeRecipients, validateMessage, type SendInput } from './message-input';

const valid: SendInput = { to: 'ann@example.com', subject: 'Hi', text: 'Hello' };

describe('validateMessage', () => {
  test('accepts one recipient or several, and an optional from and html', () => {
    expect(validateMessage(valid).to).toEqual([{ address: 'ann@example.com', name: undefined }]);
    const message = validateMessage({
      ...valid,
      to: ['a@example.com', 'B <b@example.com>'],
      from: 'c@example.com',
      html: '<p>x</p>',
    });
    expect(message.to.map((m) => m.address)).toEqual(['a@example.com', 'b@example.com']);
    expect(message.from?.address).toBe('c@example.com');
    expect(message.html).toBe('<p>x</p>');
  });

  // Header injection: a CR or LF in a value would end the header line and start a new header
  // (or a new SMTP command); every header input refuses it.
  test.each<[string, Partial<SendInput>, RegExp]>([
    ['subject with CRLF', { subject: 'Hi\r\nBcc: victim@example.com' }, /subject: CR and LF/],
    ['subject with LF', { subject: 'Hi\nX-Injected: 1' }, /subject: CR and LF/],
    ['subject with CR', { subject: 'Hi\rX-Injected: 1' }, /subject: CR and LF/],
    ['to with CRLF', { to: 'ann@example.com\r\nBcc: victim@example.com' }, /to: CR and LF/],
    [
      'second to with LF',
      { to: ['ann@example.com', 'bob@example.com\nRCPT TO:<x@example.com>'] },
      /to\[1\]: CR and LF/,
    ],
    ['from with CRLF', { from: 'a@example.com\r\nBcc: victim@example.com' }, /from: CR and LF/],
  ])('refuses header injection: %s', (_name, change, message) => {
    expect(() => validateMessage({ ...valid, ...change })).toThrow(
      expect.objectContaining({ code: 'EMESSAGE', message: expect.stringMatching(message) }),
    );
  });

  test.each<[string, unknown, RegExp]>([
    ['no recipients', { ...valid, to: [] }, /at least one recipient/],
    ['to missing', { subject: 'x', text: 'y' }, /at least one recipient/],
    ['bad address', { ...valid, to: 'nope' }, /to: invalid address/],
    ['subject not a string', { ...valid, subject: 1 }, /subject must be a string/],
    ['subject with NUL', { ...valid, subject: 'a\0b' }, /control characters/],
    ['text missing', { to: 'a@example.com', subject: 'x' }, /text must be a string/],
    ['html not a string', { ...valid, html: 1 }, /html must be a string/],
    ['unsupported field', { ...valid, attachments: [] }, /unsupported message field "attachments"/],
    ['not an object', null, /expects a message object/],
  ])('refuses %s', (_name, input, message) => {
    expect(() => validateMessage(input as SendInput)).toThrow(message);
  });

  test('control characters other than CR/LF are fine in the body', () => {
    expect(validateMessage({ ...valid, text: 'tab\there\u0000' }).text).toBe('tab\there\u0000');
  });
});

describe('envelopeRecipients', () => {
  test('lists each address once', () => {
    const to = ['a@example.com', 'A@Example.com', 'b@example.com'].map((address) => ({
      address,
      name: undefined,
    }));
    expect(envelopeRecipients(to)).toEqual(['a@example.com', 'b@example.com']);
  });
});
