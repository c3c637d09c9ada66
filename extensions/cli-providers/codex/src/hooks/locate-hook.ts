import type { HookEntry } from '@svc-org/ai-sdk';
import type { JsonSpanNode } from '../json/parse-json-spans.js';
import { jsonSpanValue } from '../json/parse-json-spans.js';

// Reading hooks.json: `{ "hooks": { "PreToolUse": [ { "matcher"?, "hooks": [ {type, command, …} ] } ] } }`.

export type ContainerNode = Extract<JsonSpanNode, { kind: 'object' | 'array' }>;

export function member(node: JsonSpanNode | undefined, key: string): JsonSpanNode | undefined {
  return node?.kind === 'object' ? node.members.find((m) => m.key === key)?.value : undefined;
}

/** The matcher as written in hooks.json: an empty HookEntry matcher means "no matcher" (every tool). */
export function hookMatcher(entry: Pick<HookEntry, 'matcher'>): string | undefined {
  return entry.matcher === '' ? undefined : entry.matcher;
}

export interface HookLocation {
  groupIndex: number;
  handlerIndex: number;
}

interface Group {
  matcher?: unknown;
  hooks?: unknown;
}

/** Where a command hook for this matcher sits in the PreToolUse list, if it is there. */
export function locateHook(root: JsonSpanNode, text: string, entry: Pick<HookEntry, 'matcher' | 'command'>): HookLocation | undefined {
  const list = member(member(root, 'hooks'), 'PreToolUse');
  if (list?.kind !== 'array') return undefined;
  const matcher = hookMatcher(entry);
  for (const [groupIndex, node] of list.items.entries()) {
    const group = jsonSpanValue(node, text) as Group;
    if (typeof group !== 'object' || group === null || group.matcher !== matcher || !Array.isArray(group.hooks)) continue;
    const handlerIndex = group.hooks.findIndex(
      (handler: { type?: unknown; command?: unknown }) => handler?.type === 'command' && handler.command === entry.command,
    );
    if (handlerIndex !== -1) return { groupIndex, handlerIndex };
  }
  return undefined;
}

/** Every PreToolUse command hook in a parsed hooks.json. */
export function listHooks(root: JsonSpanNode, text: string): HookEntry[] {
  const list = member(member(root, 'hooks'), 'PreToolUse');
  if (list?.kind !== 'array') return [];
  return list.items.flatMap((node) => {
    const group = jsonSpanValue(node, text) as Group;
    if (typeof group !== 'object' || group === null || !Array.isArray(group.hooks)) return [];
    const matcher = typeof group.matcher === 'string' ? group.matcher : '';
    return group.hooks
      .filter((handler: { type?: unknown; command?: unknown }) => handler?.type === 'command' && typeof handler.command === 'string')
      .map((handler: { command: string }) => ({ event: 'PreToolUse' as const, matcher, command: handler.command }));
  });
}
