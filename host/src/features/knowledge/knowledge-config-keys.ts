import { delimiter, isAbsolute } from 'node:path';
import { invalidConfigValue, type SystemConfigKeys } from '../../platform/config/index.js';

/** Absolute paths (files or folders, separated like PATH) a person allows the index to read although they look like secrets or are hidden. */
export const INDEX_SECRET_PATHS_KEY = 'knowledge.index.secretPaths';

export const KNOWLEDGE_CONFIG_KEYS: SystemConfigKeys = {
  [INDEX_SECRET_PATHS_KEY]: {
    description: `absolute paths (separated by "${delimiter}") the repository index may read although their names look like secrets or are hidden (unset: none)`,
    normalize: (value: string) => {
      const paths = value.split(delimiter).map((path) => path.trim()).filter(Boolean);
      if (paths.length === 0 || paths.some((path) => !isAbsolute(path))) throw invalidConfigValue(INDEX_SECRET_PATHS_KEY, `must be absolute paths separated by "${delimiter}"`);
      return paths.join(delimiter);
    },
  },
};

export function indexSecretPaths(value: string | undefined): string[] {
  return value ? value.split(delimiter).filter(Boolean) : [];
}
