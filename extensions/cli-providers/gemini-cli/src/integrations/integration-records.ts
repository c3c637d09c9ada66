import type { PluginStorage } from '@svc-org/ai-sdk';
import type { EntryPlacement, SettingsFileState } from './settings-entry-editor.js';

export type IntegrationKind = 'mcp' | 'hooks' | 'skills';

const EMPTY_STATE: SettingsFileState = { createdFile: false, createdContainers: [] };

/**
 * What svc wrote into the CLI's files, kept in plugin storage: which entries are svc's (the only ones
 * it updates or removes), how each was placed (to undo it byte for byte), and what it created in
 * each file. Only shapes and SHA-256 digests are stored, never the text of a user's file.
 */
export class IntegrationRecords {
  constructor(private readonly storage: PluginStorage) {}

  async placement(kind: IntegrationKind, path: string, id: string): Promise<EntryPlacement | undefined> {
    return await this.storage.get<EntryPlacement>(entryKey(kind, path, id));
  }

  async setPlacement(kind: IntegrationKind, path: string, id: string, placement: EntryPlacement): Promise<void> {
    await this.storage.set(entryKey(kind, path, id), placement);
  }

  async deletePlacement(kind: IntegrationKind, path: string, id: string): Promise<void> {
    await this.storage.delete(entryKey(kind, path, id));
  }

  /** The ids of the entries svc placed in one file (or folder, for skills). */
  async ids(kind: IntegrationKind, path: string): Promise<string[]> {
    const prefix = entryKey(kind, path, '');
    return (await this.storage.keys(prefix)).map((key) => key.slice(prefix.length));
  }

  async fileState(path: string): Promise<SettingsFileState> {
    const state = await this.storage.get<SettingsFileState>(fileKey(path));
    return state ? { createdFile: state.createdFile, createdContainers: state.createdContainers.map((p) => [...p]) } : { ...EMPTY_STATE };
  }

  async setFileState(path: string, state: SettingsFileState): Promise<void> {
    if (!state.createdFile && state.createdContainers.length === 0) await this.storage.delete(fileKey(path));
    else await this.storage.set(fileKey(path), state);
  }
}

/** What a new addition created, merged into what earlier ones did. */
export function mergeFileState(before: SettingsFileState, created: SettingsFileState): SettingsFileState {
  if (created.createdFile) return created;
  const seen = new Set(before.createdContainers.map((p) => p.join('\u0000')));
  return {
    createdFile: before.createdFile,
    createdContainers: [...before.createdContainers, ...created.createdContainers.filter((p) => !seen.has(p.join('\u0000')))],
  };
}

function entryKey(kind: IntegrationKind, path: string, id: string): string {
  return `integration:${kind}:${path}\u0000${id}`;
}

function fileKey(path: string): string {
  return `integration:file:${path}`;
}
