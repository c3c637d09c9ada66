import { nonNegativeIntegerValue, type SystemConfigKeys } from '../config/index.js';
import { TERMINAL_SETTING_SOURCES } from './terminal-settings.js';

/** The `svc config` keys of terminal settings (the environment variable wins over each). */
export const TERMINAL_CONFIG_KEYS: SystemConfigKeys = Object.fromEntries(
  Object.entries(TERMINAL_SETTING_SOURCES).map(([name, source]) => [
    source.key,
    { description: `terminal setting ${name} (${source.env} wins)`, normalize: nonNegativeIntegerValue(source.key) },
  ]),
);
