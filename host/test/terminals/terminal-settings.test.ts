import { describe, expect, test } from 'vitest';
import { DEFAULT_TERMINAL_SETTINGS, resolveTerminalSettings } from '../../src/features/terminals/index.js';
import { SYSTEM_CONFIG_KEYS } from '@svc-org/app/system-config-keys';

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

describe('the reply prompt wait (terminals.promptWaitMs)', () => {
  test('defaults to 10 seconds', () => {
    expect(resolveTerminalSettings({}).promptWaitMs).toBe(10_000);
  });

  test('is read from SVC_TERMINAL_PROMPT_WAIT_MS over the system config key', () => {
    const config = (key: string) => ({ 'terminals.promptWaitMs': '3000' })[key];
    expect(resolveTerminalSettings({}, config).promptWaitMs).toBe(3000);
    expect(resolveTerminalSettings({ SVC_TERMINAL_PROMPT_WAIT_MS: '750' }, config).promptWaitMs).toBe(750);
    expect(resolveTerminalSettings({ SVC_TERMINAL_PROMPT_WAIT_MS: '0' }).promptWaitMs).toBe(0);
  });

  test('refuses a value that is not a number or is negative, with a coded error', () => {
    expect(() => resolveTerminalSettings({ SVC_TERMINAL_PROMPT_WAIT_MS: 'soon' })).toThrow(
      expect.objectContaining({ code: 'invalid_settings', message: 'SVC_TERMINAL_PROMPT_WAIT_MS (terminals.promptWaitMs) must be a number' }),
    );
    expect(() => resolveTerminalSettings({}, (key) => (key === 'terminals.promptWaitMs' ? '-1' : undefined))).toThrow(
      expect.objectContaining({ code: 'invalid_settings', message: expect.stringMatching(/terminals\.promptWaitMs/) }),
    );
  });

  test('svc config set accepts a non-negative integer and refuses anything else', () => {
    const key = SYSTEM_CONFIG_KEYS['terminals.promptWaitMs'];
    expect(key?.normalize(' 1500 ')).toBe('1500');
    expect(key?.normalize('0')).toBe('0');
    for (const bad of ['-1', '1.5', 'ten']) {
      expect(() => key?.normalize(bad)).toThrow(expect.objectContaining({ code: 'config_value_invalid', message: 'terminals.promptWaitMs must be a non-negative integer' }));
    }
  });
});
