import { isIPv4, isIPv6 } from 'node:net';

/** True for a peer on this machine: 127.0.0.0/8, ::1, or either mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const v4 = mapped ? mapped[1]! : bare;
  if (isIPv4(v4)) return v4.split('.')[0] === '127';
  if (isIPv6(bare)) return /^(0{0,4}:){7}0{0,3}1$|^::1$/i.test(bare) || bare === '0:0:0:0:0:0:0:1';
  return false;
}
