// The composition root of `svc config`: every module owns its setting keys; they are gathered here.
import { HOST_PLUGINS } from './host-plugins.js';
import type { SystemConfigKeys } from '../platform/config/index.js';
import { CATALOG_CONFIG_KEYS } from '../features/extensions/catalog-installer/index.js';
import { KNOWLEDGE_CONFIG_KEYS } from '../features/knowledge/index.js';
import { RUNTIME_CONFIG_KEYS } from '../features/extensions/runtime/index.js';
import { TERMINAL_CONFIG_KEYS } from '../features/terminals/index.js';

export const SYSTEM_CONFIG_KEYS: SystemConfigKeys = Object.freeze({ ...CATALOG_CONFIG_KEYS, ...RUNTIME_CONFIG_KEYS, ...TERMINAL_CONFIG_KEYS, ...KNOWLEDGE_CONFIG_KEYS, ...Object.assign({}, ...HOST_PLUGINS.map((plugin) => plugin.configKeys)) });
