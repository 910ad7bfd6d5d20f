import { isLoopbackAddress } from './loopback';

describe('isLoopbackAddress', () => {
  test.each(['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(true);
    },
  );

  test.each(['192.0.2.1', '10.0.0.1', '::2', '::ffff:192.0.2.1', 'localhost', '', undefined])(
    '%s is not',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );
});
