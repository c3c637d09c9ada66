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
import { settingsPath } from '../integrations/claude-paths.js';
import { EditRecords } from '../integrations/edit-records.js';
import { installJsonEntry, uninstallJsonEntry } from '../integrations/json-file-edit.js';
import { isJsonObject, parseJsonObject, type JsonObject } from '../integrations/parse-json-object.js';

// Claude Code settings: {"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/abs/hook"}]}]}}.
// A PreToolUse hook that prints a deny decision (or exits 2) blocks the tool, also under
// --dangerously-skip-permissions; --bare skips hooks altogether.

interface MatcherGroup {
  matcher?: unknown;
  hooks?: unknown;
}

function recordName(entry: HookEntry): string {
  return JSON.stringify([entry.event, entry.matcher, entry.command]);
}

function checkEntry(entry: HookEntry): void {
  if (entry.event !== 'PreToolUse') {
    throw new SvcError({ code: 'invalid_request', message: 'only PreToolUse hooks are supported' });
  }
  if (entry.command.trim().length === 0) throw new SvcError({ code: 'invalid_request', message: 'a hook needs a command' });
}

function groupsOf(doc: JsonObject, event: string): MatcherGroup[] | undefined {
  const hooks = doc.hooks;
  if (!isJsonObject(hooks)) return undefined;
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as MatcherGroup[]) : undefined;
}

const isOurCommand = (command: string) => (hook: unknown) =>
  isJsonObject(hook) && hook.type === 'command' && hook.command === command;

/** PreToolUse command hooks in ~/.claude/settings.json (user) or <dir>/.claude/settings.local.json (project). */
export function createClaudeHooksIntegration(): HooksIntegration {
  const records = (ctx: AdapterContext) => new EditRecords(ctx.host.storage, 'hooks');
  return {
    async inspect(scope: IntegrationScope, ctx: AdapterContext) {
      const configPath = settingsPath(scope, ctx);
      const text = await ctx.host.files.readText(configPath);
      const entries: HookEntry[] = [];
      const groups = text === undefined ? undefined : groupsOf(parseJsonObject(text, configPath), 'PreToolUse');
      for (const group of groups ?? []) {
        if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
        for (const hook of group.hooks) {
          if (isJsonObject(hook) && hook.type === 'command' && typeof hook.command === 'string') {
            entries.push({ event: 'PreToolUse', matcher: typeof group.matcher === 'string' ? group.matcher : '', command: hook.command });
          }
        }
      }
      return { configPath, entries };
    },

    async install(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext) {
      checkEntry(entry);
      const path = settingsPath(scope, ctx);
      await installJsonEntry(ctx, { records: records(ctx), path, name: recordName(entry) }, (doc) => {
        const created: string[] = [];
        if (doc.hooks === undefined) {
          doc.hooks = {};
          created.push('hooks');
        }
        if (!isJsonObject(doc.hooks)) {
          throw new SvcError({ code: 'integration_config_invalid', message: `${path}: hooks is not an object; it was left unchanged` });
        }
        if (doc.hooks[entry.event] === undefined) {
          doc.hooks[entry.event] = [];
          created.push('event');
        }
        const groups = doc.hooks[entry.event];
        if (!Array.isArray(groups)) {
          throw new SvcError({ code: 'integration_config_invalid', message: `${path}: hooks.${entry.event} is not a list; it was left unchanged` });
        }
        let group = groups.find((candidate): candidate is MatcherGroup & { hooks: unknown[] } =>
          isJsonObject(candidate) && candidate.matcher === entry.matcher && Array.isArray(candidate.hooks),
        );
        // The same command under the same matcher is the same hook, whoever wrote it.
        if (group?.hooks.some(isOurCommand(entry.command))) return { changed: false, created };
        if (!group) {
          group = { matcher: entry.matcher, hooks: [] };
          groups.push(group);
          created.push('group');
        }
        group.hooks.push({ type: 'command', command: entry.command });
        return { changed: true, created };
      });
    },

    async uninstall(entry: HookEntry, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
      const path = settingsPath(scope, ctx);
      const text = await ctx.host.files.readText(path);
      const groups = text === undefined ? undefined : groupsOf(parseJsonObject(text, path), entry.event);
      const present = (groups ?? []).some(
        (group) => isJsonObject(group) && group.matcher === entry.matcher && Array.isArray(group.hooks) && group.hooks.some(isOurCommand(entry.command)),
      );
      const ours = (await records(ctx).get(path, recordName(entry))) !== undefined;
      if (!present) {
        if (ours) await records(ctx).delete(path, recordName(entry));
        throw new SvcError({
          code: ErrorCodes.integrationNotFound,
          message: `there is no ${entry.event} hook ${entry.matcher} → ${entry.command} in ${path}; nothing was removed`,
          details: { path },
        });
      }
      if (!ours) {
        // Hooks of other tools are not removed here even with force: their group may hold more than this command.
        throw new SvcError({
          code: ErrorCodes.integrationNotOwned,
          message: `the ${entry.event} hook ${entry.matcher} → ${entry.command} in ${path} was not written by svc (it was there before, or someone else added it); it was left in place`,
          details: { path, fix: 'remove it in Claude Code (/hooks) or by hand' },
        });
      }
      await uninstallJsonEntry(ctx, { records: records(ctx), path, name: recordName(entry) }, (doc, created) => {
        const groups = groupsOf(doc, entry.event);
        if (!groups) return;
        const at = groups.findIndex((group) => isJsonObject(group) && group.matcher === entry.matcher && Array.isArray(group.hooks));
        const group = groups[at] as { hooks: unknown[] } | undefined;
        if (group) {
          const hook = group.hooks.findIndex(isOurCommand(entry.command));
          if (hook !== -1) group.hooks.splice(hook, 1);
          if (created.includes('group') && group.hooks.length === 0) groups.splice(at, 1);
        }
        const hooks = doc.hooks as JsonObject;
        if (created.includes('event') && groups.length === 0) delete hooks[entry.event];
        if (created.includes('hooks') && Object.keys(hooks).length === 0) delete doc.hooks;
      });
      return { configPath: path, changed: true, origin: 'svc' };
    },
  };
}
