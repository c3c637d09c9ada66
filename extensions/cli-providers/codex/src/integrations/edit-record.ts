import type { PluginStorage } from '@svc-org/ai-sdk';

/**
 * What an install wrote into one file, kept in plugin storage so uninstall can take out exactly
 * that text: `inserted` (with its separator), and whether the file did not exist before.
 */
export interface EditRecord {
  inserted: string;
  createdFile: boolean;
}

const isRecord = (value: unknown): value is EditRecord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as EditRecord).inserted === 'string' &&
  typeof (value as EditRecord).createdFile === 'boolean';

export class EditRecords {
  constructor(
    private readonly storage: PluginStorage,
    private readonly prefix: string,
  ) {}

  private key(path: string, name: string): string {
    return `${this.prefix}${path}#${name}`;
  }

  async get(path: string, name: string): Promise<EditRecord | undefined> {
    const value = await this.storage.get(this.key(path, name));
    return isRecord(value) ? value : undefined;
  }

  async set(path: string, name: string, record: EditRecord): Promise<void> {
    await this.storage.set(this.key(path, name), record);
  }

  async delete(path: string, name: string): Promise<void> {
    await this.storage.delete(this.key(path, name));
  }

  /** Names recorded for one file. */
  async names(path: string): Promise<string[]> {
    const prefix = `${this.prefix}${path}#`;
    return (await this.storage.keys(prefix)).map((key) => key.slice(prefix.length));
  }
}
