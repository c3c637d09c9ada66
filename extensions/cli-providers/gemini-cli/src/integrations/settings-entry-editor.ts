// Adds and removes one entry of the CLI's settings.json as a text edit, so that every byte svc did
// not write stays as it was, and so that removing an entry undoes its addition exactly when the text
// it added is still there. The records this returns are kept in plugin storage between the calls.
import { createHash } from 'node:crypto';
import { insertChild, type ChildInsertion } from '../jsonc/insert-child.js';
import { childCount, parseJsonc, type JsoncContainer, type JsoncMember, type JsoncNode, type JsoncObject } from '../jsonc/parse-jsonc.js';
import { removeChild } from '../jsonc/remove-child.js';
import { applyTextEdit } from '../jsonc/text-edit.js';
import { deepEqual } from './deep-equal.js';

/** A path of member names and element indexes from the root object. */
export type JsonPath = Array<string | number>;

export interface EntrySpec {
  /** Member names from the root to the container that holds the entry. */
  containerPath: string[];
  container: 'object' | 'array';
  /** The member name, for an object container. */
  key?: string;
  value: unknown;
  /** Is this child the entry (by identity: a name, a matcher and command)? */
  identifies(child: JsoncNode, key: string | undefined): boolean;
  /** Does an identified child already do what the entry would? Default: equal values. */
  satisfiedBy?(child: JsoncNode): boolean;
}

/** How one addition was placed, so its removal can put the exact bytes back. */
export interface EntryPlacement {
  /** What the added text starts at: the whole file, the topmost container it created, or the entry. */
  anchor: 'file' | 'container' | 'entry';
  anchorPath?: string[];
  childOffset: number;
  length: number;
  sha256: string;
  /** The text the addition replaced (whitespace of an empty container), or null for a new file. */
  removed: string | null;
}

/** What svc created in one settings file, across all its entries: pruned when they become empty. */
export interface SettingsFileState {
  createdFile: boolean;
  createdContainers: string[][];
}

export type AddOutcome =
  | { kind: 'present' }
  | { kind: 'conflict' }
  | { kind: 'added'; text: string; placement: EntryPlacement; created: SettingsFileState };

export type RemoveOutcome =
  | { kind: 'absent' }
  /** `text` undefined: delete the file (svc created it and nothing else is left in it). */
  | { kind: 'removed'; text: string | undefined; state: SettingsFileState };

export class SettingsShapeError extends Error {
  constructor(readonly path: JsonPath) {
    super(`settings.json has "${path.join('.')}" with an unexpected type`);
    this.name = 'SettingsShapeError';
  }
}

export function addSettingsEntry(text: string | undefined, spec: EntrySpec): AddOutcome {
  const child = { key: spec.key, value: spec.value };
  if (text === undefined || text.trim() === '') {
    const document = nest(spec, spec.containerPath);
    const created = `${JSON.stringify(document, null, 2)}\n`;
    return {
      kind: 'added',
      text: created,
      placement: { anchor: 'file', childOffset: 0, length: created.length, sha256: sha256(created), removed: text ?? null },
      created: { createdFile: true, createdContainers: prefixes(spec.containerPath) },
    };
  }
  const root = parseJsonc(text);
  if (root.kind !== 'object') throw new SettingsShapeError([]);
  let container: JsoncContainer = root;
  for (let depth = 0; depth < spec.containerPath.length; depth++) {
    const name = spec.containerPath[depth]!;
    const member: JsoncMember | undefined = (container as JsoncObject).members.find((m) => m.key === name);
    const path = spec.containerPath.slice(0, depth + 1);
    if (!member) {
      // Create the rest of the path, holding the entry, as one new member here.
      const insertion = insertChild(text, container, { key: name, value: nest(spec, spec.containerPath.slice(depth + 1)) });
      return added(text, insertion, 'container', path, prefixes(spec.containerPath).slice(depth));
    }
    const last = depth === spec.containerPath.length - 1;
    const expected = last ? spec.container : 'object';
    if (member.node.kind !== expected) throw new SettingsShapeError(path);
    container = member.node;
  }
  const found = findEntry(container, spec);
  if (found) return (spec.satisfiedBy ?? ((node) => deepEqual(node.value, spec.value)))(found.node) ? { kind: 'present' } : { kind: 'conflict' };
  return added(text, insertChild(text, container, child), 'entry', undefined, []);
}

export interface RemoveSpec {
  /** Member names and element indexes from the root to the container that holds the entry. */
  containerPath: JsonPath;
  container: 'object' | 'array';
  identifies(child: JsoncNode, key: string | undefined): boolean;
}

export function removeSettingsEntry(
  text: string,
  spec: RemoveSpec,
  placement: EntryPlacement | undefined,
  state: SettingsFileState,
): RemoveOutcome {
  const root = parseJsonc(text);
  if (root.kind !== 'object') throw new SettingsShapeError([]);
  const container = walk(root, spec.containerPath);
  const found = container && container.kind === spec.container ? findEntry(container, spec) : undefined;
  if (!container || !found) return { kind: 'absent' };

  const nextState: SettingsFileState = { createdFile: state.createdFile, createdContainers: state.createdContainers.map((p) => [...p]) };
  const exact = placement ? undoExactly(text, root, found.start, placement) : undefined;
  if (exact === null) return { kind: 'removed', text: undefined, state: { createdFile: false, createdContainers: [] } };
  let next = exact ?? applyTextEdit(text, removeChild(text, container, found.index));
  if (placement?.anchor === 'file' && exact !== undefined) nextState.createdFile = false;
  next = prune(next, nextState);
  if (nextState.createdFile && isEmptyDocument(next)) {
    return { kind: 'removed', text: undefined, state: { createdFile: false, createdContainers: [] } };
  }
  return { kind: 'removed', text: next, state: nextState };
}

/** Puts back the bytes an addition replaced, if the text it added is still there unchanged. */
function undoExactly(text: string, root: JsoncNode, entryStart: number, placement: EntryPlacement): string | null | undefined {
  let anchorStart: number;
  if (placement.anchor === 'file') anchorStart = 0;
  else if (placement.anchor === 'entry') anchorStart = entryStart;
  else {
    const member = memberAt(root, placement.anchorPath ?? []);
    if (!member) return undefined;
    anchorStart = member;
  }
  const offset = anchorStart - placement.childOffset;
  if (offset < 0) return undefined;
  const added = text.slice(offset, offset + placement.length);
  if (added.length !== placement.length || sha256(added) !== placement.sha256) return undefined;
  if (placement.anchor === 'file' && offset + placement.length !== text.length) return undefined;
  if (placement.anchor === 'file' && placement.removed === null) return null;
  const restored = text.slice(0, offset) + (placement.removed ?? '') + text.slice(offset + placement.length);
  try {
    if (restored.trim() !== '') parseJsonc(restored);
  } catch {
    return undefined;
  }
  return restored;
}

/** `{}` and whitespace only: what is left of a file svc created once its entries are gone. */
function isEmptyDocument(text: string): boolean {
  return text.replace(/\s/g, '') === '{}';
}

/** Removes the containers svc created that are now empty, deepest first. */
function prune(text: string, state: SettingsFileState): string {
  let next = text;
  const byDepth = [...state.createdContainers].sort((a, b) => b.length - a.length);
  for (const path of byDepth) {
    const root = parseJsonc(next) as JsoncContainer;
    const node = walk(root, path);
    if (node && childCount(node) > 0) continue;
    state.createdContainers = state.createdContainers.filter((p) => p.join('\u0000') !== path.join('\u0000'));
    if (!node) continue;
    const parent = walk(root, path.slice(0, -1));
    if (!parent || parent.kind !== 'object') continue;
    const index = parent.members.findIndex((m) => m.key === path[path.length - 1]);
    next = applyTextEdit(next, removeChild(next, parent, index));
  }
  return next;
}

function added(
  text: string,
  insertion: ChildInsertion,
  anchor: 'container' | 'entry',
  anchorPath: string[] | undefined,
  createdContainers: string[][],
): AddOutcome {
  return {
    kind: 'added',
    text: text.slice(0, insertion.offset) + insertion.inserted + text.slice(insertion.offset + insertion.removed.length),
    placement: {
      anchor,
      ...(anchorPath ? { anchorPath } : {}),
      childOffset: insertion.childOffset,
      length: insertion.inserted.length,
      sha256: sha256(insertion.inserted),
      removed: insertion.removed,
    },
    created: { createdFile: false, createdContainers },
  };
}

/** The value of `path` (member names) holding just the entry. */
function nest(spec: Pick<EntrySpec, 'container' | 'key' | 'value'>, path: string[]): unknown {
  let value: unknown = spec.container === 'array' ? [spec.value] : { [spec.key ?? '']: spec.value };
  for (let i = path.length - 1; i >= 0; i--) value = { [path[i]!]: value };
  return value;
}

function prefixes(path: string[]): string[][] {
  return path.map((_, i) => path.slice(0, i + 1));
}

function walk(root: JsoncNode, path: JsonPath): JsoncContainer | undefined {
  let node: JsoncNode | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (typeof segment === 'number') node = node.kind === 'array' ? node.elements[segment] : undefined;
    else node = node.kind === 'object' ? node.members.find((m) => m.key === segment)?.node : undefined;
  }
  return node && node.kind !== 'scalar' ? node : undefined;
}

function memberAt(root: JsoncNode, path: string[]): number | undefined {
  const parent = walk(root, path.slice(0, -1));
  if (!parent || parent.kind !== 'object') return undefined;
  return parent.members.find((m) => m.key === path[path.length - 1])?.keyStart;
}

function findEntry(
  container: JsoncContainer,
  spec: Pick<EntrySpec, 'identifies'>,
): { index: number; node: JsoncNode; start: number } | undefined {
  if (container.kind === 'object') {
    const index = container.members.findIndex((m) => spec.identifies(m.node, m.key));
    return index === -1 ? undefined : { index, node: container.members[index]!.node, start: container.members[index]!.keyStart };
  }
  const index = container.elements.findIndex((e) => spec.identifies(e, undefined));
  return index === -1 ? undefined : { index, node: container.elements[index]!, start: container.elements[index]!.start };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
