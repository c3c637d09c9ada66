import type { Db } from '../../db/index.js';

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
      keys: db.prepare('SELECT key FROM plugin_storage WHERE plugin_id = ? AND substr(key, 1, ?) = ? ORDER BY key'),
    };
  }

  get(pluginId: string, key: string): unknown {
    const row = this.statements.get.get(pluginId, key) as { value: string } | undefined;
    return row ? JSON.parse(row.value) : undefined;
  }

  set(pluginId: string, key: string, value: unknown): void {
    this.statements.set.run(pluginId, key, JSON.stringify(value), new Date().toISOString());
  }

  delete(pluginId: string, key: string): void {
    this.statements.delete.run(pluginId, key);
  }

  keys(pluginId: string, prefix: string): string[] {
    return (this.statements.keys.all(pluginId, prefix.length, prefix) as { key: string }[]).map((row) => row.key);
  }
}
