import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * True when an IP address is a loopback address: 127.0.0.0/8, ::1, or an IPv4-mapped 127.x
 * address. Meant for the address a socket actually connected to, never a host name.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const candidate = mapped?.[1] ?? address;
  const family = isIP(candidate);
  if (family === 4) return loopback.check(candidate, 'ipv4');
  if (family === 6) return loopback.check(candidate, 'ipv6');
  return false;
}
