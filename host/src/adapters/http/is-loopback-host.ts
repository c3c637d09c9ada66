import { isLoopbackAddress } from './is-loopback-address.js';

/**
 * True when a `Host` header names this machine by a loopback name or address (with any port).
 * A page served from another name that resolves to 127.0.0.1 (DNS rebinding) sends that other name.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const value = host.trim().toLowerCase();
  let name: string;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close === -1) return false;
    name = value.slice(1, close);
    const rest = value.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return false;
  } else {
    const match = /^([^:]+)(:\d{1,5})?$/.exec(value);
    if (!match) return false;
    name = match[1]!;
  }
  return name === 'localhost' || isLoopbackAddress(name);
}
