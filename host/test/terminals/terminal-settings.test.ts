import { describe, expect, test } from 'vitest';
import { DEFAULT_TERMINAL_SETTINGS, resolveTerminalSettings } from '../../src/features/terminals/index.js';

describe('terminal settings', () => {
  test('default to a 2-hour keepalive and a 1 MiB scrollback', () => {
    expect(resolveTerminalSettings({})).toEqual(DEFAULT_TERMINAL_SETTINGS);
    expect(DEFAULT_TERMINAL_SETTINGS.keepaliveMs).toBe(7_200_000);
  });

  test('the environment wins over system config, which wins over the default', () => {
    const config = (key: string) => ({ 'terminals.keepaliveMs': '60000', 'terminals.scrollbackBytes': '65536' })[key];
    const settings = resolveTerminalSettings({ SVC_TERMINAL_KEEPALIVE_MS: '5000' }, config);
    expect(settings).toMatchObject({ keepaliveMs: 5000, scrollbackBytes: 65536 });
  });

  test('a value that is not a number names its variable and key', () => {
    expect(() => resolveTerminalSettings({ SVC_TERMINAL_KEEPALIVE_MS: 'two hours' })).toThrow(
      'SVC_TERMINAL_KEEPALIVE_MS (terminals.keepaliveMs) must be a number',
    );
  });

  test('a value out of range names the setting and the rule', () => {
    expect(() => resolveTerminalSettings({ SVC_TERMINAL_SCROLLBACK_BYTES: '100' })).toThrow(/terminals\.scrollbackBytes .*4096/);
    expect(() => resolveTerminalSettings({ SVC_TERMINAL_KEEPALIVE_MS: '0' })).toThrow(/terminals\.keepaliveMs/);
  });
});
