// The versions of catalog extensions kept in the store (`extension_versions`), and the catalog columns
// of `extensions` (current path and version, previous, pending). Statements here open no transaction:
// the catalog installer composes them into the one transaction of each switch, beside its journal row.
// Only `confirmPending` is a transaction of its own (enabling a staged update is nothing but a switch).
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../../platform/db/index.js';
import { transaction } from '../../../platform/db/index.js';
import type { ExtensionRecord, ExtensionState } from './extension-record.js';
import { ExtensionRowSchema } from './extension-record.js';

const PermissionNamesSchema = z.array(z.string());

export const ExtensionVersionRowSchema = z
  .object({
    id: z.string(),
    version: z.string(),
    path: z.string(),
    sha256: z.string(),
    size: z.number(),
    permissions: z.string().transform((text) => PermissionNamesSchema.parse(JSON.parse(text))),
    // Null for versions installed before migration 0006: recorded at their next load.
    tree_sha256: z.string().nullish(),
    installed_at: z.string(),
  })
  .transform((row) => ({
    id: row.id,
    version: row.version,
    path: row.path,
    sha256: row.sha256,
    size: row.size,
    permissions: row.permissions,
    treeSha256: row.tree_sha256 ?? undefined,
    installedAt: row.installed_at,
  }));

export type ExtensionVersionRecord = z.output<typeof ExtensionVersionRowSchema>;

export interface NewExtensionVersion {
  id: string;
  version: string;
  path: string;
  sha256: string;
  size: number;
  permissions: readonly string[];
  /** computeTreeDigest of the installed folder. */
  treeSha256: string;
}

export interface CurrentVersionFields {
  version: string;
  path: string;
  displayName: string;
  previousVersion: string | null;
  state: ExtensionState;
  /** Set by a rollback: the version it left. */
  rolledBackFrom?: string | null;
}

export class ExtensionVersionStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  find(id: string, version: string): ExtensionVersionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM extension_versions WHERE id = ? AND version = ?').get(id, version);
    return row ? ExtensionVersionRowSchema.parse(row) : undefined;
  }

  get(id: string, version: string): ExtensionVersionRecord {
    const found = this.find(id, version);
    if (!found) {
      throw new SvcError({ code: 'extension_version_missing', message: `${id} ${version} is not in the extension store`, details: { id, version } });
    }
    return found;
  }

  list(id?: string): ExtensionVersionRecord[] {
    const rows = id === undefined
      ? this.db.prepare('SELECT * FROM extension_versions ORDER BY id, installed_at').all()
      : this.db.prepare('SELECT * FROM extension_versions WHERE id = ? ORDER BY installed_at').all(id);
    return rows.map((row) => ExtensionVersionRowSchema.parse(row));
  }

  /** A new catalog registration: disabled, nothing granted, pointing at its first version. */
  registerCatalog(fields: { id: string; version: string; path: string; displayName: string }): void {
    const at = this.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO extensions (id, source, state, path, version, display_name, granted_permissions, created_at, updated_at)
         VALUES (?, 'catalog', 'disabled', ?, ?, ?, '[]', ?, ?)`,
      )
      .run(fields.id, fields.path, fields.version, fields.displayName, at, at);
  }

  addVersion(version: NewExtensionVersion): void {
    this.db
      .prepare('INSERT INTO extension_versions (id, version, path, sha256, size, permissions, tree_sha256, installed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        version.id,
        version.version,
        version.path,
        version.sha256,
        version.size,
        JSON.stringify([...new Set(version.permissions)].sort()),
        version.treeSha256,
        this.now().toISOString(),
      );
  }

  /** Records the tree digest of a version installed before digests were kept (first load after the upgrade). */
  recordTreeDigest(id: string, version: string, treeSha256: string): void {
    this.db.prepare('UPDATE extension_versions SET tree_sha256 = ? WHERE id = ? AND version = ? AND tree_sha256 IS NULL').run(treeSha256, id, version);
  }

  /** Makes `fields.version` the one that serves; any pending update is dropped. */
  setCurrent(id: string, fields: CurrentVersionFields): void {
    this.db
      .prepare(
        `UPDATE extensions SET path = ?, version = ?, display_name = ?, previous_version = ?, pending_version = NULL,
         rolled_back_from = ?, state = ?, error_code = NULL, error_message = NULL, updated_at = ? WHERE id = ?`,
      )
      .run(fields.path, fields.version, fields.displayName, fields.previousVersion, fields.rolledBackFrom ?? null, fields.state, this.now().toISOString(), id);
  }

  /**
   * Records (or clears, with null) a staged version that waits for confirmation, and the state that goes
   * with it. A rollback that waits passes the version it leaves (`rolledBackFrom`), kept once confirmed.
   */
  setPending(id: string, version: string | null, state: ExtensionState, rolledBackFrom?: string | null): void {
    this.db
      .prepare('UPDATE extensions SET pending_version = ?, state = ?, error_code = NULL, error_message = NULL, updated_at = ? WHERE id = ?')
      .run(version, state, this.now().toISOString(), id);
    if (rolledBackFrom !== undefined) this.db.prepare('UPDATE extensions SET rolled_back_from = ? WHERE id = ?').run(rolledBackFrom, id);
  }

  /** Deletes the version rows of `id` other than `keep`; returns what was deleted (its folders are now leftovers). */
  removeVersionsExcept(id: string, keep: ReadonlyArray<string | undefined | null>): ExtensionVersionRecord[] {
    const kept = new Set(keep.filter((version): version is string => typeof version === 'string'));
    const gone = this.list(id).filter((row) => !kept.has(row.version));
    for (const row of gone) this.db.prepare('DELETE FROM extension_versions WHERE id = ? AND version = ?').run(id, row.version);
    return gone;
  }

  /** Removes a registration with its versions (cascade) and its plugin storage. */
  deleteRegistration(id: string): void {
    this.db.prepare('DELETE FROM extensions WHERE id = ?').run(id);
    this.db.prepare('DELETE FROM plugin_storage WHERE plugin_id = ?').run(id);
  }

  /**
   * The user confirmed the permissions of the staged update: it becomes the current version, granted
   * exactly `permissions`, enabled; the version it replaces becomes the previous one. One transaction.
   */
  confirmPending(id: string, expectedVersion: string, permissions: readonly string[], displayName: string, probe: string): ExtensionRecord {
    return transaction(this.db, () => {
      const record = this.readRecord(id);
      // The user confirmed what they were shown; another process may have staged a different update since.
      if (record?.pendingVersion !== expectedVersion) {
        throw new SvcError({
          code: 'pending_update_changed',
          message: `the update of ${id} waiting for confirmation is no longer ${expectedVersion}; run the command again`,
        });
      }
      const pending = this.get(id, expectedVersion);
      // A confirmed rollback stays a rollback: a second one must not go forward again.
      const rolledBackFrom = record.rolledBackFrom === record.version ? record.version : null;
      this.setCurrent(id, { version: pending.version, path: pending.path, displayName, previousVersion: record.version, state: 'enabled', rolledBackFrom });
      this.db
        .prepare('UPDATE extensions SET granted_permissions = ?, confirmed_probe = ? WHERE id = ?')
        .run(JSON.stringify([...new Set(permissions)].sort()), probe, id);
      this.removeVersionsExcept(id, [pending.version, record.version]);
      return this.readRecord(id)!;
    });
  }

  private readRecord(id: string): ExtensionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM extensions WHERE id = ?').get(id);
    return row ? ExtensionRowSchema.parse(row) : undefined;
  }
}
