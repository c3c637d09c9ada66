import type { PluginStorage } from '@svc-org/ai-sdk';

/** What one install changed in one file, kept in plugin storage so uninstall can undo exactly that. */
export interface EditRecord {
  /** The file's text before the first install of this entry; null when the file did not exist. */
  before: string | null;
  /** The text the last install left. If the file still reads so, uninstall writes `before` back. */
  after: string;
  /** Containers the install created (e.g. "mcpServers"); removed again when they end up empty. */
  created: string[];
}

export type IntegrationKind = 'mcp' | 'hooks' | 'skills';

/** The records of one integration kind. An entry with no record was not written by this provider. */
export class EditRecords {
  constructor(
    private readonly storage: PluginStorage,
    private readonly kind: IntegrationKind,
  ) {}

  private key(path: string, name: string): string {
    return `integration:${this.kind}:${path}:${name}`;
  }

  async get(path: string, name: string): Promise<EditRecord | undefined> {
    const value = await this.storage.get(this.key(path, name));
    return isEditRecord(value) ? value : undefined;
  }

  async set(path: string, name: string, record: EditRecord): Promise<void> {
    await this.storage.set(this.key(path, name), { ...record });
  }

  async delete(path: string, name: string): Promise<void> {
    await this.storage.delete(this.key(path, name));
  }

  /** Names recorded for one file. */
  async names(path: string): Promise<string[]> {
    const prefix = `integration:${this.kind}:${path}:`;
    return (await this.storage.keys(prefix)).map((key) => key.slice(prefix.length));
  }
}

function isEditRecord(value: unknown): value is EditRecord {
  const record = value as EditRecord | undefined;
  return (
    typeof record === 'object' &&
    record !== null &&
    (record.before === null || typeof record.before === 'string') &&
    typeof record.after === 'string' &&
    Array.isArray(record.created)
  );
}
