// The keys `svc config set` accepts, each with the rule its value must follow. A key that is not
// listed is refused: a typo must not be stored silently and then ignored.
import { SvcError } from '@svc-org/ai-sdk';
import { parseHttpsUrl } from '../extensions/install/parse-https-url.js';
import { TASK_DIRECTIVE_KEYS } from '../terminals/task-directives.js';
import { TERMINAL_SETTING_SOURCES } from '../terminals/terminal-settings.js';

export interface SystemConfigKey {
  description: string;
  /** Returns the value as it is stored, or throws `config_value_invalid` naming the rule. */
  normalize(value: string): string;
}

const positiveInteger = (key: string) => (value: string): string => {
  const trimmed = value.trim();
  if (!/^[1-9][0-9]*$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw invalidValue(key, 'must be a positive integer');
  return trimmed;
};

const directiveText = (key: string) => (value: string): string => {
  if (value.length > 16 * 1024) throw invalidValue(key, 'must be at most 16 KiB of text');
  return value;
};

const nonNegativeInteger = (key: string) => (value: string): string => {
  const trimmed = value.trim();
  if (!/^(0|[1-9][0-9]*)$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw invalidValue(key, 'must be a non-negative integer');
  return trimmed;
};

function invalidValue(key: string, rule: string): SvcError {
  return new SvcError({ code: 'config_value_invalid', message: `${key} ${rule}`, details: { key } });
}

export const SYSTEM_CONFIG_KEYS: Readonly<Record<string, SystemConfigKey>> = Object.freeze({
  'extensions.catalogUrl': {
    description: 'catalog index URL (https:; a base URL gets /index.v1.json appended); SVC_EXTENSION_CATALOG_URL wins',
    normalize(value: string): string {
      const url = parseHttpsUrl(value.trim(), 'extensions.catalogUrl');
      if (url.search !== '' || url.hash !== '') throw invalidValue('extensions.catalogUrl', 'must carry no query or fragment (put credentials in SVC_EXTENSION_CATALOG_TOKEN)');
      return url.href;
    },
  },
  'extensions.maxIndexBytes': { description: 'bound of the index.v1.json response (default 4 MiB)', normalize: positiveInteger('extensions.maxIndexBytes') },
  'extensions.maxArtifactBytes': { description: 'bound of a compressed artifact (default 32 MiB)', normalize: positiveInteger('extensions.maxArtifactBytes') },
  'extensions.maxUnpackedBytes': { description: 'bound of an artifact once unpacked (default 128 MiB)', normalize: positiveInteger('extensions.maxUnpackedBytes') },
  'extensions.maxEntries': { description: 'bound of files and folders in an artifact (default 5000)', normalize: positiveInteger('extensions.maxEntries') },
  [TASK_DIRECTIVE_KEYS.system]: {
    description: 'guidance added to every task terminal: the escalation ladder (unset: the built-in text)',
    normalize: directiveText(TASK_DIRECTIVE_KEYS.system),
  },
  [TASK_DIRECTIVE_KEYS.workbench]: {
    description: "guidance added to a project's Workbench, a task other tasks report to (unset: the built-in text)",
    normalize: directiveText(TASK_DIRECTIVE_KEYS.workbench),
  },
  ...Object.fromEntries(
    Object.entries(TERMINAL_SETTING_SOURCES).map(([name, source]) => [
      source.key,
      { description: `terminal setting ${name} (${source.env} wins)`, normalize: nonNegativeInteger(source.key) },
    ]),
  ),
});

export function systemConfigKey(key: string): SystemConfigKey {
  const known = Object.hasOwn(SYSTEM_CONFIG_KEYS, key) ? SYSTEM_CONFIG_KEYS[key] : undefined;
  if (!known) {
    throw new SvcError({
      code: 'config_key_unknown',
      message: `unknown config key "${key}"; known keys: ${Object.keys(SYSTEM_CONFIG_KEYS).sort().join(', ')}`,
      details: { key },
    });
  }
  return known;
}
