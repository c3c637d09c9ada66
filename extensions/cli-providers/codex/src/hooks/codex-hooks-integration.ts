import { createHash } from 'node:crypto';
import {
  SvcError,
  type AdapterContext,
  type HookEntry,
  type HooksIntegration,
  type IntegrationScope,
  ErrorCodes,
  type IntegrationChange,
  type IntegrationRemoval,
} from '@svc-org/ai-sdk';
import { codexHookStateKey, codexHookTrustHash } from './codex-hook-trust-hash.js';
import { hookMatcher, listHooks, locateHook, member, type ContainerNode } from './locate-hook.js';
import { hooksJsonPath, userConfigPath } from '../integrations/codex-paths.js';
import { EditRecords, type EditRecord } from '../integrations/edit-record.js';
import { removeLast } from '../integrations/text-edit.js';
import { appendToJsonContainer } from '../json/append-to-json-container.js';
import { parseJsonSpans, JsonSpanError, type JsonSpanNode } from '../json/parse-json-spans.js';
import { tomlString } from '../toml/format-toml.js';
import { installTomlTable, uninstallTomlTable, type TomlTableEdit } from '../toml/toml-table-edits.js';
import type { TomlTable, TomlValue } from '../toml/toml-value.js';

// A PreToolUse command hook in hooks.json, plus its trust. Codex runs a non-managed hook only when
// the user config holds `[hooks.state."<hooks.json>:pre_tool_use:<group>:<handler>"]` with the
// hook's `trusted_hash` (otherwise `codex exec` skips it silently), so install writes that entry
// too — the persisted form of the review `/hooks` does in the TUI. The key is positional: when a
// hook svc installed moves (an earlier one svc installed was removed), its trust entry moves with it.

interface RegisteredHook {
  id: string;
  matcher: string;
  command: string;
  /** The state key whose trust svc wrote for it, if any. */
  trustKey?: string;
}

const REGISTRY_PREFIX = 'codex/hook-registry/';
const CREATED_PREFIX = 'codex/hooks-file-created/';

/** Nothing but empty event lists left: what remains of a hooks.json svc created once its hooks are gone. */
function isEmptyHooksFile(text: string): boolean {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const keys = Object.keys(value);
    if (keys.some((key) => key !== 'hooks')) return false;
    const hooks = (value.hooks ?? {}) as Record<string, unknown>;
    return typeof hooks === 'object' && Object.values(hooks).every((list) => Array.isArray(list) && list.length === 0);
  } catch {
    return false;
  }
}

function hookId(entry: Pick<HookEntry, 'matcher' | 'command'>): string {
  return createHash('sha256').update(`${entry.matcher}\u0000${entry.command}`).digest('hex').slice(0, 24);
}

function parseHooksFile(text: string, path: string): JsonSpanNode {
  try {
    const root = parseJsonSpans(text);
    if (root.kind !== 'object') throw new JsonSpanError('the top level is not an object', 0);
    return root;
  } catch (error) {
    if (error instanceof JsonSpanError || error instanceof SyntaxError) {
      throw new SvcError({ code: 'integration_config_invalid', message: `${path} is not valid hooks JSON: ${error.message}; it was left unchanged` });
    }
    throw error;
  }
}

function checkEntry(entry: HookEntry): void {
  if (entry.event !== 'PreToolUse') {
    throw new SvcError({ code: 'invalid_request', message: 'only PreToolUse hooks are supported' });
  }
  if (typeof entry.command !== 'string' || entry.command.trim() === '') {
    throw new SvcError({ code: 'invalid_request', message: 'a hook needs a non-empty command' });
  }
}

/** The hooks.json text that adds the group (one insertion), creating "hooks"/"PreToolUse" as needed. */
function insertGroup(text: string, root: JsonSpanNode, group: Record<string, unknown>): { next: string; inserted: string } {
  const hooks = member(root, 'hooks');
  const list = member(hooks, 'PreToolUse');
  let container: ContainerNode;
  let value: unknown;
  let key: string | undefined;
  if (hooks === undefined) {
    [container, value, key] = [root as ContainerNode, { PreToolUse: [group] }, 'hooks'];
  } else if (hooks.kind !== 'object') {
    throw new SvcError({ code: 'integration_config_invalid', message: '"hooks" in hooks.json is not an object; it was left unchanged' });
  } else if (list === undefined) {
    [container, value, key] = [hooks, [group], 'PreToolUse'];
  } else if (list.kind !== 'array') {
    throw new SvcError({ code: 'integration_config_invalid', message: '"hooks.PreToolUse" in hooks.json is not an array; it was left unchanged' });
  } else {
    [container, value, key] = [list, group, undefined];
  }
  const { offset, inserted } = appendToJsonContainer(text, container, value, key);
  return { next: text.slice(0, offset) + inserted + text.slice(offset), inserted };
}

/** The text that removes one handler (or its whole group when it is the only one) from PreToolUse. */
function removeHandler(text: string, root: JsonSpanNode, entry: HookEntry): string | undefined {
  const location = locateHook(root, text, entry);
  const list = member(member(root, 'hooks'), 'PreToolUse');
  if (!location || list?.kind !== 'array') return undefined;
  const group = list.items[location.groupIndex]!;
  const handlers = member(group, 'hooks');
  const cut = (items: JsonSpanNode[], index: number): [number, number] => {
    const node = items[index]!;
    if (index > 0) return [items[index - 1]!.end, node.end];
    if (items.length > 1) return [node.start, items[1]!.start];
    return [node.start, node.end];
  };
  const [start, end] =
    handlers?.kind === 'array' && handlers.items.length > 1
      ? cut(handlers.items, location.handlerIndex)
      : cut(list.items, location.groupIndex);
  return text.slice(0, start) + text.slice(end);
}

export class CodexHooksIntegration implements HooksIntegration {
  async inspect(scope: IntegrationScope, ctx: AdapterContext) {
    const configPath = hooksJsonPath(scope, ctx);
    const text = await ctx.host.files.readText(configPath);
    const ours = new Set((await this.registry(configPath, ctx)).map((hook) => hook.id));
    const hooks = text === undefined ? [] : listHooks(parseHooksFile(text, configPath), text);
    return { configPath, entries: hooks.map((hook) => ({ ...hook, origin: ours.has(hookId(hook)) ? ('svc' as const) : ('other' as const) })) };
  }

  async install(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange> {
    checkEntry(entry);
    const path = hooksJsonPath(scope, ctx);
    const id = hookId(entry);
    const records = new EditRecords(ctx.host.storage, 'codex/hooks/');
    const group = {
      ...(hookMatcher(entry) === undefined ? {} : { matcher: entry.matcher }),
      hooks: [{ type: 'command', command: entry.command }],
    };
    const text = await ctx.host.files.readText(path);
    if (text === undefined) {
      const created = `${JSON.stringify({ hooks: { PreToolUse: [group] } }, null, 2)}\n`;
      await ctx.host.files.writeText(path, created);
      await records.set(path, id, { inserted: created, createdFile: true });
      await ctx.host.storage.set(CREATED_PREFIX + path, true);
    } else {
      const root = parseHooksFile(text, path);
      if (!locateHook(root, text, entry)) {
        const { next, inserted } = insertGroup(text, root, group);
        await ctx.host.files.writeText(path, next);
        await records.set(path, id, { inserted, createdFile: false });
      }
    }
    const registry = await this.registry(path, ctx);
    if (!registry.some((hook) => hook.id === id)) registry.push({ id, matcher: entry.matcher, command: entry.command });
    await this.syncTrust(path, registry, scope, ctx);
    return { configPath: path, changed: (await ctx.host.files.readText(path)) !== text };
  }

  async uninstall(entry: HookEntry, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
    checkEntry(entry);
    const path = hooksJsonPath(scope, ctx);
    const id = hookId(entry);
    const records = new EditRecords(ctx.host.storage, 'codex/hooks/');
    const record = await records.get(path, id);
    const text = await ctx.host.files.readText(path);
    const present = text !== undefined && locateHook(parseHooksFile(text, path), text, entry) !== undefined;
    const ours = record !== undefined || (await this.registry(path, ctx)).some((hook) => hook.id === id);
    if (present && !ours && scope.force !== true) {
      throw new SvcError({
        code: ErrorCodes.integrationNotOwned,
        message: `the PreToolUse hook ${entry.matcher} → ${entry.command} in ${path} was not written by svc (it was there before, or someone else added it); it was left in place`,
        details: { path, fix: 'add --force to remove it anyway' },
      });
    }
    await this.remove(entry, scope, ctx, { path, id, records, record, text });
    if (!present) {
      throw new SvcError({
        code: ErrorCodes.integrationNotFound,
        message: `there is no PreToolUse hook ${entry.matcher} → ${entry.command} in ${path}; nothing was removed`,
        details: { path },
      });
    }
    return { configPath: path, changed: true, origin: ours ? 'svc' : 'other' };
  }

  private async remove(
    entry: HookEntry,
    scope: IntegrationScope,
    ctx: AdapterContext,
    { path, id, records, record, text }: { path: string; id: string; records: EditRecords; record: EditRecord | undefined; text: string | undefined },
  ): Promise<void> {
    if (text !== undefined) {
      const restored = record ? removeLast(text, record.inserted) : undefined;
      if (restored !== undefined && record?.createdFile && restored.trim() === '') {
        await ctx.host.files.remove(path);
      } else {
        const next = restored ?? removeHandler(text, parseHooksFile(text, path), entry);
        if (next !== undefined) await ctx.host.files.writeText(path, next);
      }
    }
    if (record) await records.delete(path, id);
    const registry = await this.registry(path, ctx);
    const mine = registry.find((hook) => hook.id === id);
    if (mine?.trustKey) await uninstallTomlTable(this.trustEdit(mine.trustKey, scope, ctx));
    const rest = registry.filter((hook) => hook.id !== id);
    if (rest.length === 0 && (await ctx.host.storage.get(CREATED_PREFIX + path)) === true) {
      // svc created this file; once its last hook is gone (by exact or structural removal) and
      // nobody added anything, the file goes too.
      const left = await ctx.host.files.readText(path);
      if (left !== undefined && isEmptyHooksFile(left)) await ctx.host.files.remove(path);
      await ctx.host.storage.delete(CREATED_PREFIX + path);
    }
    await this.syncTrust(path, rest, scope, ctx);
  }

  private async registry(hooksPath: string, ctx: AdapterContext): Promise<RegisteredHook[]> {
    const value = await ctx.host.storage.get<RegisteredHook[]>(REGISTRY_PREFIX + hooksPath);
    return Array.isArray(value) ? value : [];
  }

  private trustEdit(key: string, scope: IntegrationScope, ctx: AdapterContext): TomlTableEdit {
    return {
      files: ctx.host.files,
      records: new EditRecords(ctx.host.storage, 'codex/hook-trust/'),
      path: userConfigPath(scope, ctx),
      name: key,
      tablePath: ['hooks', 'state', key],
      label: `the hook state "${key}"`,
    };
  }

  /** Puts each registered hook's trust under the key of where it sits now in hooks.json. */
  private async syncTrust(hooksPath: string, registry: RegisteredHook[], scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const text = await ctx.host.files.readText(hooksPath);
    const root = text === undefined ? undefined : parseHooksFile(text, hooksPath);
    for (const hook of registry) {
      const location = root && text !== undefined ? locateHook(root, text, hook) : undefined;
      const key = location ? codexHookStateKey(hooksPath, location.groupIndex, location.handlerIndex) : undefined;
      if (hook.trustKey && hook.trustKey !== key) {
        await uninstallTomlTable(this.trustEdit(hook.trustKey, scope, ctx));
        delete hook.trustKey;
      }
      if (key) {
        const hash = codexHookTrustHash(hookMatcher(hook), hook.command);
        await installTomlTable(
          this.trustEdit(key, scope, ctx),
          (eol) => `[hooks.state.${tomlString(key)}]${eol}trusted_hash = ${tomlString(hash)}${eol}`,
          (config) => isTrusted(config, key, hash),
        );
        hook.trustKey = key;
      }
    }
    const kept = registry.filter((hook) => hook.trustKey !== undefined);
    if (kept.length > 0) await ctx.host.storage.set(REGISTRY_PREFIX + hooksPath, kept);
    else await ctx.host.storage.delete(REGISTRY_PREFIX + hooksPath);
  }
}

function isTrusted(config: TomlTable, key: string, hash: string): boolean {
  const get = (value: TomlValue | undefined, part: string) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) ? value[part] : undefined;
  const state = get(get(config.hooks, 'state'), key);
  return (
    typeof state === 'object' &&
    state !== null &&
    !Array.isArray(state) &&
    !(state instanceof Date) &&
    state.trusted_hash === hash &&
    Object.keys(state).length === 1
  );
}
