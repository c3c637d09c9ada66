import { positiveIntegerValue, type SystemConfigKeys } from '../../../platform/config/index.js';
import { RUNTIME_SETTING_SOURCES } from './runtime-settings.js';

/** The `svc config` keys of the extension runtime's limits (the environment variable wins over each). */
export const RUNTIME_CONFIG_KEYS: SystemConfigKeys = Object.fromEntries(
  Object.values(RUNTIME_SETTING_SOURCES).map((source) => [source.key, { description: `${source.description} (${source.env} wins)`, normalize: positiveIntegerValue(source.key) }]),
);
