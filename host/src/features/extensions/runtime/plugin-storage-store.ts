import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../../platform/db/index.js';

/** Plugin-scoped key/value rows: a plugin reaches only rows under its own id. */
export class PluginStorageStore {
  // Prepared once: a Host Context round trip should cost a lookup, not a statement compile.
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      get: db.prepare('SELECT value FROM plugin_storage WHERE plugin_id = ? AND key = ?'),
      set: db.prepare(
        `INSERT INTO plugin_storage (plugin_id, key, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (plugin_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      delete: db.prepare('DELETE FROM plugin_storage WHERE plugin_id = ? AND key = ?'),
      usedBesides: db.prepare('SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS used FROM plugin_storage WHERE plugin_id = ? AND key <> ?'),
      keys: db.prepare('SELECT key FROM plugin_storage WHERE plugin_id = ? AND substr(key, 1, ?) = ? ORDER BY key'),
    };
  }

  get(pluginId: string, key: string): unknown {
    const row = this.statements.get.get(pluginId, key) as { value: string } | undefined;
    return row ? JSON.parse(row.value) : undefined;
  }

  /** Writes a value; with a quota, refuses (`storage_quota_exceeded`, nothing written) what would take the plugin's rows past it. */
  set(pluginId: string, key: string, value: unknown, quotaBytes?: number): void {
    const text = JSON.stringify(value);
    if (quotaBytes !== undefined) {
      const size = Buffer.byteLength(key) + Buffer.byteLength(text);
      const { used } = this.statements.usedBesides.get(pluginId, key) as { used: number };
      if (used + size > quotaBytes) {
        throw new SvcError({
          code: 'storage_quota_exceeded',
          message: `the provider's storage would hold ${used + size} bytes; its quota is ${quotaBytes} (runtime.storageQuotaBytes)`,
          pluginId,
          details: { fix: 'delete keys the provider no longer needs, or raise runtime.storageQuotaBytes' },
        });
      }
    }
    this.statements.set.run(pluginId, key, text, new Date().toISOString());
  }

  delete(pluginId: string, key: string): void {
    this.statements.delete.run(pluginId, key);
  }

  keys(pluginId: string, prefix: string): string[] {
    return (this.statements.keys.all(pluginId, prefix.length, prefix) as { key: string }[]).map((row) => row.key);
  }
}
