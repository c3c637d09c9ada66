// Looks a key up in the table the composition root gathered from every module. A key that is not
// listed is refused: a typo must not be stored silently and then ignored.
import { SvcError } from '@svc-org/ai-sdk';
import { closestName } from './closest-name.js';
import type { SystemConfigKey, SystemConfigKeys } from './system-config-key.js';

export function lookupSystemConfigKey(keys: SystemConfigKeys, key: string): SystemConfigKey {
  const known = Object.hasOwn(keys, key) ? keys[key] : undefined;
  if (!known) {
    const guess = closestName(key, Object.keys(keys));
    throw new SvcError({
      code: 'config_key_unknown',
      message: `unknown config key "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; known keys: ${Object.keys(keys).sort().join(', ')}`,
      details: { key, ...(guess ? { fix: `use "${guess}"` } : {}) },
    });
  }
  return known;
}
