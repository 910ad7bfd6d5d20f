import { parseEhloReply } from './capabilities';

describe('parseEhloReply', () => {
  test('reads keywords, parameters, AUTH mechanisms, STARTTLS and SIZE', () => {
    const caps = parseEhloReply([
      'mx.example.com greets you',
      'PIPELINING',
      'SIZE 10240000',
      'starttls',
      'AUTH LOGIN plain',
      '8BITMIME',
    ]);
    expect(caps.greeting).toBe('mx.example.com greets you');
    expect([...caps.extensions.keys()]).toEqual([
      'PIPELINING',
      'SIZE',
      'STARTTLS',
      'AUTH',
      '8BITMIME',
    ]);
    expect(caps.extensions.get('SIZE')).toEqual(['10240000']);
    expect([...caps.authMechanisms]).toEqual(['LOGIN', 'PLAIN']);
    expect(caps.startTls).toBe(true);
    expect(caps.maxSize).toBe(10240000);
  });

  test('reads the obsolete AUTH= form', () => {
    const caps = parseEhloReply(['mx', 'AUTH=LOGIN PLAIN', 'AUTH CRAM-MD5']);
    expect([...caps.authMechanisms].sort()).toEqual(['CRAM-MD5', 'LOGIN', 'PLAIN']);
  });

  test('a server with no extensions', () => {
    const caps = parseEhloReply(['mx.example.com']);
    expect(caps.extensions.size).toBe(0);
    expect(caps.startTls).toBe(false);
    expect(caps.maxSize).toBeUndefined();
    expect(caps.authMechanisms.size).toBe(0);
  });

  test('SIZE without a number means no announced limit', () => {
    expect(parseEhloReply(['mx', 'SIZE']).maxSize).toBeUndefined();
    expect(parseEhloReply(['mx', 'SIZE 0']).maxSize).toBe(0);
  });

  test('ignores blank lines and extra white space', () => {
    const caps = parseEhloReply(['mx', '', '  AUTH   PLAIN\t LOGIN  ']);
    expect([...caps.authMechanisms]).toEqual(['PLAIN', 'LOGIN']);
  });
});
