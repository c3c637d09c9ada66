import type { Db } from '../db/index.js';

/** One value of the `system_config` table (text as stored), or undefined when the key is unset. */
export function readSystemConfig(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM system_config WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}
