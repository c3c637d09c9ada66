import { describe, expect, test } from 'vitest';
import { checkLoopbackRequest, hasInstallToken, isLoopbackAddress, isLoopbackHost } from '../../src/adapters/http/index.js';

describe('loopback peer check', () => {
  test.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])('accepts %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });
  test.each(['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', '2001:db8::1', '0.0.0.0', '', undefined])('refuses %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });

  test('a request from a non-loopback peer is refused with not_loopback, whatever its Host says', () => {
    expect(() => checkLoopbackRequest('192.168.1.20', '127.0.0.1:7878')).toThrow(expect.objectContaining({ code: 'not_loopback' }));
    expect(() => checkLoopbackRequest('::ffff:10.1.2.3', 'localhost')).toThrow(expect.objectContaining({ code: 'not_loopback' }));
    expect(() => checkLoopbackRequest('127.0.0.1', '127.0.0.1:7878')).not.toThrow();
  });
});

describe('Host header check', () => {
  test.each(['localhost', 'localhost:7878', '127.0.0.1:7878', '127.0.0.1', '[::1]:7878', '[::1]', 'LOCALHOST:80'])('accepts %s', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  test.each(['evil.example', 'evil.example:7878', '127.0.0.1.nip.io:7878', 'localhost.evil.example', '[::1]x', '10.0.0.1:7878', '', undefined])(
    'refuses %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('token check', () => {
  const token = 'k'.repeat(43);
  test('accepts exactly the install token as a bearer token', () => {
    expect(hasInstallToken(`Bearer ${token}`, token)).toBe(true);
    expect(hasInstallToken(`bearer ${token}`, token)).toBe(true);
  });
  test.each([undefined, '', token, `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, 'Bearer '])('refuses %s', (header) => {
    expect(hasInstallToken(header, token)).toBe(false);
  });
});
