import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../../platform/db/index.js';
import { ExtensionRowSchema, type ExtensionRecord, type ExtensionSource, type ExtensionState } from './extension-record.js';
import { ExtensionCrashLog } from './extension-crash-log.js';
import { ExtensionVersionStore } from './extension-version-store.js';

export interface NewExtension {
  id: string;
  source: ExtensionSource;
  path: string;
  version: string;
  displayName: string;
}

/** The `extensions` table. Every state change goes through here so rows stay consistent. */
export class ExtensionRegistry {
  /** Versions of catalog installs kept in the store, and the catalog columns of these rows. */
  readonly versions: ExtensionVersionStore;
  /** Calls that crashed their worker or process (crash-loop quarantine). */
  readonly crashes: ExtensionCrashLog;

  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
    this.versions = new ExtensionVersionStore(db, now);
    this.crashes = new ExtensionCrashLog(db);
  }

  list(): ExtensionRecord[] {
    return this.db
      .prepare('SELECT * FROM extensions ORDER BY id')
      .all()
      .map((row) => ExtensionRowSchema.parse(row));
  }

  find(id: string): ExtensionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM extensions WHERE id = ?').get(id);
    return row ? ExtensionRowSchema.parse(row) : undefined;
  }

  get(id: string): ExtensionRecord {
    const record = this.find(id);
    if (!record) {
      throw new SvcError({
        code: 'extension_not_found',
        message: `no extension "${id}" is registered (see \`svc ext list\`)`,
        details: { id },
      });
    }
    return record;
  }

  /** Registrations always start disabled with nothing granted. */
  add(extension: NewExtension): ExtensionRecord {
    if (this.find(extension.id)) {
      throw new SvcError({
        code: 'extension_exists',
        message: `an extension "${extension.id}" is already registered`,
        details: { id: extension.id },
      });
    }
    const at = this.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO extensions (id, source, state, path, version, display_name, granted_permissions, created_at, updated_at)
         VALUES (?, ?, 'disabled', ?, ?, ?, '[]', ?, ?)`,
      )
      .run(extension.id, extension.source, extension.path, extension.version, extension.displayName, at, at);
    return this.get(extension.id);
  }

  remove(id: string): void {
    this.get(id);
    this.db.prepare('DELETE FROM extensions WHERE id = ?').run(id);
    this.db.prepare('DELETE FROM plugin_storage WHERE plugin_id = ?').run(id);
    this.crashes.forget(id);
  }

  setState(id: string, state: ExtensionState, error?: { code: string; message: string }): ExtensionRecord {
    this.db
      .prepare('UPDATE extensions SET state = ?, error_code = ?, error_message = ?, updated_at = ? WHERE id = ?')
      .run(state, error?.code ?? null, error?.message ?? null, this.now().toISOString(), id);
    return this.get(id);
  }

  /** Grants exactly `permissions` with the CLI probe shown with them (what the user confirmed) and enables. */
  grantAndEnable(id: string, permissions: readonly string[], probe: string): ExtensionRecord {
    this.db
      .prepare(
        `UPDATE extensions SET state = 'enabled', granted_permissions = ?, confirmed_probe = ?, error_code = NULL, error_message = NULL,
         updated_at = ? WHERE id = ?`,
      )
      .run(JSON.stringify([...new Set(permissions)].sort()), probe, this.now().toISOString(), id);
    return this.get(id);
  }

  /** The probe of a grant confirmed before probes were kept: what runs now becomes the reference. */
  recordConfirmedProbe(id: string, probe: string): void {
    this.db.prepare('UPDATE extensions SET confirmed_probe = ? WHERE id = ? AND confirmed_probe IS NULL').run(probe, id);
  }

  /** The isolation mode the person chose (`svc ext enable --isolation`). */
  setIsolation(id: string, mode: 'worker' | 'process'): ExtensionRecord {
    this.db.prepare('UPDATE extensions SET isolation = ?, updated_at = ? WHERE id = ?').run(mode, this.now().toISOString(), id);
    return this.get(id);
  }

  updateSource(id: string, fields: { path: string; version: string; displayName: string }): ExtensionRecord {
    this.db
      .prepare('UPDATE extensions SET path = ?, version = ?, display_name = ?, updated_at = ? WHERE id = ?')
      .run(fields.path, fields.version, fields.displayName, this.now().toISOString(), id);
    return this.get(id);
  }
}
