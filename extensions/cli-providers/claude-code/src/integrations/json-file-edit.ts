import type { AdapterContext } from '@svc-org/ai-sdk';
import type { EditRecord, EditRecords } from './edit-records.js';
import { editJsonText } from './edit-json-text.js';
import { CLAUDE_JSON_FORMAT, detectJsonFormat, formatJson } from './json-text-format.js';
import { parseJsonObject, type JsonObject } from './parse-json-object.js';

export interface JsonEdit {
  records: EditRecords;
  path: string;
  /** The entry's key in the records (a server name, a matcher + command…). */
  name: string;
}

export interface AddOutcome {
  /** False when the document already holds the entry exactly: nothing is written. */
  changed: boolean;
  /** Containers the add created, to prune on removal. */
  created: string[];
}

/**
 * Adds an entry to a JSON configuration file, keeping everything else in it. `add` gets the parsed
 * document and whether the entry is ours (recorded by an earlier install); it throws
 * `integration_conflict` rather than replace an entry someone else wrote.
 */
export async function installJsonEntry(
  ctx: AdapterContext,
  edit: JsonEdit,
  add: (doc: JsonObject, ours: boolean) => AddOutcome,
): Promise<void> {
  const before = await ctx.host.files.readText(edit.path);
  const doc = before === undefined ? {} : parseJsonObject(before, edit.path);
  const record = await edit.records.get(edit.path, edit.name);
  const original = structuredClone(doc);
  const outcome = add(doc, record !== undefined);
  if (!outcome.changed) return;
  // A new file is written as Claude Code writes it; an existing one gets the smallest edit.
  const after = before === undefined ? formatJson(doc, CLAUDE_JSON_FORMAT) : editJsonText(before, original, doc, detectJsonFormat(before));
  await ctx.host.files.writeText(edit.path, after);
  const next: EditRecord = record
    ? { before: record.before, after, created: [...new Set([...record.created, ...outcome.created])] }
    : { before: before ?? null, after, created: outcome.created };
  await edit.records.set(edit.path, edit.name, next);
}

/**
 * Removes an entry this provider installed. When the file still reads exactly as the install left
 * it, the text from before the install is written back byte for byte (or the file removed, when the
 * install created it). When something else changed the file since (Claude Code rewrites
 * ~/.claude.json on every run), only the entry and the containers the install created are removed.
 * An entry without a record was not written by this provider and is left alone.
 */
export async function uninstallJsonEntry(
  ctx: AdapterContext,
  edit: JsonEdit,
  remove: (doc: JsonObject, created: string[]) => void,
): Promise<void> {
  const record = await edit.records.get(edit.path, edit.name);
  if (!record) return;
  const current = await ctx.host.files.readText(edit.path);
  if (current === undefined) {
    await edit.records.delete(edit.path, edit.name);
    return;
  }
  if (current === record.after) {
    if (record.before === null) await ctx.host.files.remove(edit.path);
    else await ctx.host.files.writeText(edit.path, record.before);
    await edit.records.delete(edit.path, edit.name);
    return;
  }
  const doc = parseJsonObject(current, edit.path);
  const original = structuredClone(doc);
  remove(doc, record.created);
  if (record.before === null && Object.keys(doc).length === 0) {
    await ctx.host.files.remove(edit.path);
  } else {
    const text = editJsonText(current, original, doc, detectJsonFormat(current));
    if (text !== current) await ctx.host.files.writeText(edit.path, text);
  }
  await edit.records.delete(edit.path, edit.name);
}
