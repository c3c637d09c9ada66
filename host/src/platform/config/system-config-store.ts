// `system_config` as `svc config get|set|unset|list` reaches it: keys are checked against the
// table the composition root gathered (each module owns its keys) and values against each key's
// rule before anything is stored.
import type { Db } from '../db/index.js';
import { readSystemConfig } from './read-system-config.js';
import type { SystemConfigKeys } from './system-config-key.js';
import { lookupSystemConfigKey } from './lookup-system-config-key.js';

export class SystemConfigStore {
  constructor(
    private readonly db: Db,
    private readonly keys: SystemConfigKeys,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(key: string): string | undefined {
    lookupSystemConfigKey(this.keys, key);
    return readSystemConfig(this.db, key);
  }

  /** Returns the value as stored (normalized). */
  set(key: string, value: string): string {
    const stored = lookupSystemConfigKey(this.keys, key).normalize(value);
    this.db
      .prepare('INSERT INTO system_config (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at')
      .run(key, stored, this.now().toISOString());
    return stored;
  }

  /** True when the key was set. */
  unset(key: string): boolean {
    lookupSystemConfigKey(this.keys, key);
    return this.db.prepare('DELETE FROM system_config WHERE key = ?').run(key).changes > 0;
  }

  list(): Array<{ key: string; value: string }> {
    return this.db.prepare('SELECT key, value FROM system_config ORDER BY key').all() as Array<{ key: string; value: string }>;
  }
}
