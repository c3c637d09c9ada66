// The composition root of `svc config`: every module owns its setting keys; they are gathered here.
import { HOST_PLUGINS } from './host-plugins.js';
import type { SystemConfigKeys } from '@svc-org/host/platform/config';
import { CATALOG_CONFIG_KEYS } from '@svc-org/host/features/extensions/catalog-installer';
import { KNOWLEDGE_CONFIG_KEYS } from '@svc-org/host/features/knowledge';
import { RUNTIME_CONFIG_KEYS } from '@svc-org/host/features/extensions/runtime';
import { TERMINAL_CONFIG_KEYS } from '@svc-org/host/features/terminals';

export const SYSTEM_CONFIG_KEYS: SystemConfigKeys = Object.freeze({ ...CATALOG_CONFIG_KEYS, ...RUNTIME_CONFIG_KEYS, ...TERMINAL_CONFIG_KEYS, ...KNOWLEDGE_CONFIG_KEYS, ...Object.assign({}, ...HOST_PLUGINS.map((plugin) => plugin.configKeys)) });
