import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../platform/db/index.js';
import { transaction } from '../../platform/db/index.js';
import { CONNECTION_NAME_PATTERN, ConnectionRowSchema, type ConnectionRecord } from './connection-record.js';

export interface ConnectionInput {
  name: string;
  providerId: string;
  enabled?: boolean;
  commandOverride?: string | null;
  baseArgs?: string[];
  env?: Record<string, string>;
  /** Non-sensitive provider settings. */
  config?: Record<string, unknown>;
  /** Sensitive provider settings: stored apart, never returned by list/show. */
  secrets?: Record<string, string>;
}

/** `connections` and `connection_secrets`. Secrets go in and come out only through `secretsOf`. */
const MIN_ENV_SECRET_LENGTH = 8;

export class ConnectionStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(): ConnectionRecord[] {
    return this.db.prepare('SELECT * FROM connections ORDER BY name').all().map((row) => ConnectionRowSchema.parse(row));
  }

  find(name: string): ConnectionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM connections WHERE name = ?').get(name);
    return row ? ConnectionRowSchema.parse(row) : undefined;
  }

  get(name: string): ConnectionRecord {
    const record = this.find(name);
    if (!record) throw new SvcError({ code: 'connection_not_found', message: `no connection named "${name}"`, details: { name } });
    return record;
  }

  secretKeys(id: number): string[] {
    return (this.db.prepare('SELECT key FROM connection_secrets WHERE connection_id = ? ORDER BY key').all(id) as { key: string }[]).map((r) => r.key);
  }

  secretsOf(id: number): Record<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM connection_secrets WHERE connection_id = ?').all(id) as { key: string; value: string }[];
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }

  /**
   * Every value of a connection the redactor must know: sensitive settings, and environment values
   * (API keys, tokens). Short env values ("1", "true") are left out: replacing them everywhere would
   * corrupt the text around them and hide nothing worth hiding.
   */
  secretValuesOf(record: ConnectionRecord): string[] {
    return [...Object.values(this.secretsOf(record.id)), ...Object.values(record.env).filter((value) => value.length >= MIN_ENV_SECRET_LENGTH)];
  }

  add(input: ConnectionInput): ConnectionRecord {
    if (!CONNECTION_NAME_PATTERN.test(input.name)) {
      throw new SvcError({ code: 'invalid_request', message: 'a connection name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit' });
    }
    const at = this.now().toISOString();
    return transaction(this.db, () => {
      if (this.find(input.name)) throw new SvcError({ code: 'connection_exists', message: `a connection named "${input.name}" already exists` });
      const result = this.db
        .prepare(
          `INSERT INTO connections (name, provider_id, enabled, command_override, base_args, env, config, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.name,
          input.providerId,
          input.enabled === false ? 0 : 1,
          input.commandOverride ?? null,
          JSON.stringify(input.baseArgs ?? []),
          JSON.stringify(input.env ?? {}),
          JSON.stringify(input.config ?? {}),
          at,
          at,
        );
      const id = Number(result.lastInsertRowid);
      this.writeSecrets(id, input.secrets ?? {});
      return this.get(input.name);
    });
  }

  update(name: string, patch: Partial<Omit<ConnectionInput, 'name' | 'providerId'>>): ConnectionRecord {
    return transaction(this.db, () => {
      const current = this.get(name);
      this.db
        .prepare(
          `UPDATE connections SET enabled = ?, command_override = ?, base_args = ?, env = ?, config = ?, updated_at = ? WHERE id = ?`,
        )
        .run(
          (patch.enabled ?? current.enabled) ? 1 : 0,
          patch.commandOverride === undefined ? (current.commandOverride ?? null) : patch.commandOverride,
          JSON.stringify(patch.baseArgs ?? current.baseArgs),
          JSON.stringify(patch.env ?? current.env),
          JSON.stringify(patch.config ?? current.config),
          this.now().toISOString(),
          current.id,
        );
      if (patch.secrets) {
        this.db.prepare('DELETE FROM connection_secrets WHERE connection_id = ?').run(current.id);
        this.writeSecrets(current.id, patch.secrets);
      }
      return this.get(name);
    });
  }

  remove(name: string): void {
    transaction(this.db, () => {
      const current = this.get(name);
      this.db.prepare('DELETE FROM connection_secrets WHERE connection_id = ?').run(current.id);
      this.db.prepare('DELETE FROM connections WHERE id = ?').run(current.id);
    });
  }

  private writeSecrets(id: number, secrets: Record<string, string>): void {
    const insert = this.db.prepare('INSERT INTO connection_secrets (connection_id, key, value) VALUES (?, ?, ?)');
    for (const [key, value] of Object.entries(secrets)) insert.run(id, key, value);
  }
}
