import { SvcError, type IntegrationFilesApi } from '@svc-org/ai-sdk';
import type { EditRecords } from '../integrations/edit-record.js';
import { appendSeparator, lineEnding, removeLast } from '../integrations/text-edit.js';
import { parseTomlFile } from './parse-toml-file.js';
import { removeTomlEntry } from './remove-toml-entry.js';
import type { TomlTable, TomlValue } from './toml-value.js';

// Adding and removing one table of a TOML file (an MCP server, a hook's trust state) as one appended
// block, recorded so that uninstall takes out exactly the bytes install added.

export interface TomlTableEdit {
  files: IntegrationFilesApi;
  records: EditRecords;
  path: string;
  /** The record's name within the file (unique per table). */
  name: string;
  /** Where the table lives, e.g. ['mcp_servers', 'docs']. */
  tablePath: string[];
  /** What the integration calls the thing, for messages ("MCP server \"docs\""). */
  label: string;
}

function valueAt(root: TomlTable, path: string[]): TomlValue | undefined {
  let at: TomlValue | undefined = root;
  for (const part of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || at instanceof Date) return undefined;
    at = at[part];
  }
  return at;
}

/**
 * Appends `render(eol)` unless the file already holds the table as wanted (`isSame`). Replaces the
 * table when this integration wrote it before and its text is intact; refuses (integration_conflict)
 * when someone else defined it.
 */
export async function installTomlTable(
  edit: TomlTableEdit,
  render: (eol: string) => string,
  isSame: (root: TomlTable) => boolean,
): Promise<'unchanged' | 'written'> {
  const original = await edit.files.readText(edit.path);
  const record = await edit.records.get(edit.path, edit.name);
  let base = original ?? '';
  let createdFile = original === undefined;
  if (original !== undefined) {
    const doc = parseTomlFile(original, edit.path);
    if (isSame(doc)) return 'unchanged';
    const restored = record ? removeLast(original, record.inserted) : undefined;
    if (record && restored !== undefined) {
      base = restored; // our earlier version, taken out before the new one goes in
      createdFile = record.createdFile;
    }
  }
  const doc = parseTomlFile(base, edit.path);
  if (valueAt(doc, edit.tablePath) !== undefined) {
    throw new SvcError({
      code: 'integration_conflict',
      message: `${edit.label} is already defined in ${edit.path} and was not written by svc; remove it there or use another name`,
      details: { path: edit.path },
    });
  }
  const eol = lineEnding(base);
  const inserted = appendSeparator(base, eol) + render(eol);
  const next = base + inserted;
  try {
    parseTomlFile(next, edit.path);
  } catch (error) {
    throw new SvcError({
      code: 'integration_conflict',
      message: `${edit.label} cannot be added to ${edit.path}: ${(error as Error).message}`,
      details: { path: edit.path },
    });
  }
  await edit.files.writeText(edit.path, next);
  await edit.records.set(edit.path, edit.name, { inserted, createdFile });
  return 'written';
}

/**
 * Takes the table out: exactly the text install added when it is still there (the file is then
 * what it was before), else every statement defining the table. Removes a file install created
 * when nothing else is left in it.
 */
export async function uninstallTomlTable(edit: TomlTableEdit): Promise<void> {
  const text = await edit.files.readText(edit.path);
  const record = await edit.records.get(edit.path, edit.name);
  if (text === undefined) {
    if (record) await edit.records.delete(edit.path, edit.name);
    return;
  }
  let next = record ? removeLast(text, record.inserted) : undefined;
  if (next === undefined) {
    const doc = parseTomlFile(text, edit.path);
    if (valueAt(doc, edit.tablePath) === undefined) {
      if (record) await edit.records.delete(edit.path, edit.name);
      return;
    }
    next = removeTomlEntry(text, doc, edit.tablePath, edit.path);
  }
  if (record?.createdFile && next.trim() === '') await edit.files.remove(edit.path);
  else await edit.files.writeText(edit.path, next);
  if (record) await edit.records.delete(edit.path, edit.name);
}
