import {
  ErrorCodes,
  SvcError,
  type AdapterContext,
  type HookEntry,
  type HooksIntegration,
  type IntegrationInspection,
  type IntegrationScope,
} from '@svc-org/ai-sdk';
import type { JsoncNode } from '../jsonc/parse-jsonc.js';
import { deepEqual } from './deep-equal.js';
import { IntegrationRecords, mergeFileState } from './integration-records.js';
import { settingsPath } from './integration-paths.js';
import { guardSettings, readSettingsFile } from './read-settings-file.js';
import { addSettingsEntry, removeSettingsEntry, type EntrySpec, type RemoveSpec } from './settings-entry-editor.js';
import { GeminiErrorCodes } from '../gemini-error-codes.js';

// Gemini CLI's PreToolUse is `BeforeTool` (docs/hooks of 0.61.0): settings.json
// `hooks.BeforeTool[] = {matcher, hooks: [{type: "command", command}]}`, the matcher a regular
// expression over tool names. Verified headless: a hook answering {"decision":"deny"} blocks the
// tool (recordings/stream-hook-deny). Project hooks run only in a trusted folder.
const EVENT = 'BeforeTool';
const CONTAINER = ['hooks', EVENT];

export class GeminiHooksIntegration implements HooksIntegration {
  async inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<HookEntry>> {
    const file = await readSettingsFile(settingsPath(scope, ctx), ctx);
    const hooks = (file.root?.value as { hooks?: Record<string, unknown> } | undefined)?.hooks;
    const groups = typeof hooks === 'object' && hooks !== null ? hooks[EVENT] : undefined;
    const entries: HookEntry[] = [];
    if (Array.isArray(groups)) {
      for (const group of groups as Array<{ matcher?: unknown; hooks?: unknown }>) {
        if (!Array.isArray(group?.hooks)) continue;
        for (const hook of group.hooks as Array<{ type?: unknown; command?: unknown }>) {
          if (hook?.type === 'command' && typeof hook.command === 'string') {
            entries.push({ event: 'PreToolUse', matcher: typeof group.matcher === 'string' ? group.matcher : '', command: hook.command });
          }
        }
      }
    }
    return { configPath: file.path, entries };
  }

  async install(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const spec = specOf(entry);
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    const outcome = guardSettings(path, () => addSettingsEntry(file.text, spec));
    // Present: a group with this matcher already runs this command (svc's or the user's).
    if (outcome.kind !== 'added') return;
    await ctx.host.files.writeText(path, outcome.text);
    await records.setPlacement('hooks', path, idOf(entry), outcome.placement);
    await records.setFileState(path, mergeFileState(await records.fileState(path), outcome.created));
  }

  async uninstall(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const spec = specOf(entry);
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    const placement = await records.placement('hooks', path, idOf(entry));
    const groups = (file.root?.members.find((m) => m.key === 'hooks')?.node as JsoncNode | undefined);
    const list = groups?.kind === 'object' ? groups.members.find((m) => m.key === EVENT)?.node : undefined;
    const index = list?.kind === 'array' ? list.elements.findIndex((group) => spec.identifies(group, undefined)) : -1;
    if (index === -1) {
      await records.deletePlacement('hooks', path, idOf(entry));
      throw new SvcError({
        code: ErrorCodes.integrationNotFound,
        message: `there is no ${EVENT} hook "${entry.command}" (matcher "${entry.matcher}") in ${path}; nothing was removed`,
        details: { path },
      });
    }
    if (!placement) {
      throw new SvcError({
        code: GeminiErrorCodes.integrationNotOwned,
        message: `svc did not install the ${EVENT} hook "${entry.command}" (matcher "${entry.matcher}") in ${path}; remove it by hand`,
      });
    }
    const state = await records.fileState(path);
    // The group as svc wrote it goes whole; if someone added hooks to it, only svc's hook goes.
    const exact: RemoveSpec = { containerPath: CONTAINER, container: 'array', identifies: (group) => deepEqual(group.value, spec.value) };
    const inner: RemoveSpec = {
      containerPath: [...CONTAINER, index, 'hooks'],
      container: 'array',
      identifies: (hook) => deepEqual(hook.value, { type: 'command', command: entry.command }),
    };
    const removal = guardSettings(path, () => {
      const whole = removeSettingsEntry(file.text!, exact, placement, state);
      return whole.kind === 'removed' ? whole : removeSettingsEntry(file.text!, inner, undefined, state);
    });
    if (removal.kind === 'removed') {
      if (removal.text === undefined) await ctx.host.files.remove(path);
      else await ctx.host.files.writeText(path, removal.text);
      await records.setFileState(path, removal.state);
    }
    await records.deletePlacement('hooks', path, idOf(entry));
  }
}

function specOf(entry: HookEntry): EntrySpec {
  if (entry?.event !== 'PreToolUse') {
    throw new SvcError({ code: 'invalid_request', message: `the Gemini CLI provider installs PreToolUse hooks only, not "${String(entry?.event)}"` });
  }
  if (typeof entry.command !== 'string' || entry.command.trim() === '' || typeof entry.matcher !== 'string') {
    throw new SvcError({ code: 'invalid_request', message: 'a hook entry needs a command and a matcher' });
  }
  const runsCommand = (group: JsoncNode) => {
    const value = group.value as { matcher?: unknown; hooks?: unknown } | null;
    return (
      value?.matcher === entry.matcher &&
      Array.isArray(value.hooks) &&
      value.hooks.some((hook: { type?: unknown; command?: unknown }) => hook?.type === 'command' && hook.command === entry.command)
    );
  };
  return {
    containerPath: CONTAINER,
    container: 'array',
    value: { matcher: entry.matcher, hooks: [{ type: 'command', command: entry.command }] },
    identifies: runsCommand,
    satisfiedBy: runsCommand,
  };
}

function idOf(entry: HookEntry): string {
  return `${entry.event}\u0000${entry.matcher}\u0000${entry.command}`;
}
