import {
  ErrorCodes,
  SvcError,
  type AdapterContext,
  type IntegrationChange,
  type IntegrationInspection,
  type IntegrationRemoval,
  type IntegrationScope,
  type McpIntegration,
  type McpServerEntry,
} from '@svc-org/ai-sdk';
import { GeminiErrorCodes } from '../gemini-error-codes.js';
import { IntegrationRecords, mergeFileState } from './integration-records.js';
import { settingsPath } from './integration-paths.js';
import { guardSettings, readSettingsFile } from './read-settings-file.js';
import { removeChild } from '../jsonc/remove-child.js';
import { applyTextEdit } from '../jsonc/text-edit.js';
import { addSettingsEntry, removeSettingsEntry, type EntrySpec } from './settings-entry-editor.js';

/**
 * MCP servers in the `mcpServers` object of settings.json, in the shape `gemini mcp add` writes:
 * `{command, args?, env?}` for stdio, `{url, type: "http"}` for a streamable HTTP server.
 */
export class GeminiMcpIntegration implements McpIntegration {
  async inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<McpServerEntry>> {
    const file = await readSettingsFile(settingsPath(scope, ctx), ctx);
    const servers = file.root?.value && (file.root.value as Record<string, unknown>).mcpServers;
    const records = new IntegrationRecords(ctx.host.storage);
    const entries: IntegrationInspection<McpServerEntry>['entries'] = [];
    if (typeof servers === 'object' && servers !== null && !Array.isArray(servers)) {
      for (const [name, value] of Object.entries(servers as Record<string, unknown>)) {
        const origin = (await records.placement('mcp', file.path, name)) ? ('svc' as const) : ('other' as const);
        entries.push({ ...entryOf(name, value), origin });
      }
    }
    return { configPath: file.path, entries };
  }

  async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange> {
    const spec = specOf(entry);
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    let text = file.text;
    let state = await records.fileState(path);
    let outcome = guardSettings(path, () => addSettingsEntry(text, spec));
    if (outcome.kind === 'present') return { configPath: path, changed: false };
    if (outcome.kind === 'conflict') {
      const owned = await records.placement('mcp', path, entry.name);
      if (!owned) {
        throw new SvcError({
          code: GeminiErrorCodes.integrationConflict,
          message: `${path} already has an MCP server named "${entry.name}" that svc did not install; it was left as it is`,
        });
      }
      // svc's own entry with other settings: replace it.
      const removal = guardSettings(path, () => removeSettingsEntry(text!, spec, owned, state));
      if (removal.kind === 'removed') {
        text = removal.text;
        state = removal.state;
      }
      outcome = guardSettings(path, () => addSettingsEntry(text, spec));
      if (outcome.kind !== 'added') throw new Error(`MCP server "${entry.name}" could not be replaced in ${path}`);
    }
    await ctx.host.files.writeText(path, outcome.text);
    await records.setPlacement('mcp', path, entry.name, outcome.placement);
    await records.setFileState(path, mergeFileState(state, outcome.created));
    return { configPath: path, changed: true };
  }

  async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    const placement = await records.placement('mcp', path, name);
    const spec = specOf({ name, command: 'unused' });
    const servers = file.root?.members.find((m) => m.key === 'mcpServers')?.node;
    const index = servers?.kind === 'object' ? servers.members.findIndex((m) => m.key === name) : -1;
    if (servers?.kind !== 'object' || index === -1) {
      await records.deletePlacement('mcp', path, name);
      throw new SvcError({ code: ErrorCodes.integrationNotFound, message: `there is no MCP server "${name}" in ${path}; nothing was removed`, details: { path } });
    }
    if (!placement) {
      if (scope.force !== true) {
        throw new SvcError({
          code: GeminiErrorCodes.integrationNotOwned,
          message: `svc did not install the MCP server "${name}" in ${path} (it was there before, or someone else added it); it was left in place`,
          details: { path, fix: 'add --force to remove it anyway, or use `gemini mcp remove`' },
        });
      }
      // Not ours: take out just that member, as `gemini mcp remove` would, and keep every other byte.
      await ctx.host.files.writeText(path, applyTextEdit(file.text!, removeChild(file.text!, servers, index)));
      return { configPath: path, changed: true, origin: 'other' };
    }
    const state = await records.fileState(path);
    const final = guardSettings(path, () => removeSettingsEntry(file.text!, spec, placement, state));
    if (final.kind === 'removed') {
      if (final.text === undefined) await ctx.host.files.remove(path);
      else await ctx.host.files.writeText(path, final.text);
      await records.setFileState(path, final.state);
    }
    await records.deletePlacement('mcp', path, name);
    return { configPath: path, changed: true, origin: 'svc' };
  }
}

function specOf(entry: McpServerEntry): EntrySpec {
  if (typeof entry?.name !== 'string' || entry.name.trim() === '') {
    throw new SvcError({ code: 'invalid_request', message: 'an MCP server entry needs a name' });
  }
  if (Boolean(entry.command) === Boolean(entry.url)) {
    throw new SvcError({ code: 'invalid_request', message: `MCP server "${entry.name}" needs either a command or a url` });
  }
  const value = entry.url
    ? { url: entry.url, type: 'http' }
    : {
        command: entry.command,
        ...(entry.args && entry.args.length > 0 ? { args: entry.args } : {}),
        ...(entry.env && Object.keys(entry.env).length > 0 ? { env: entry.env } : {}),
      };
  return {
    containerPath: ['mcpServers'],
    container: 'object',
    key: entry.name,
    value,
    identifies: (_child, key) => key === entry.name,
  };
}

function entryOf(name: string, value: unknown): McpServerEntry {
  const server = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const url = typeof server.url === 'string' ? server.url : typeof server.httpUrl === 'string' ? server.httpUrl : undefined;
  const env = typeof server.env === 'object' && server.env !== null ? (server.env as Record<string, unknown>) : undefined;
  return {
    name,
    ...(typeof server.command === 'string' ? { command: server.command } : {}),
    ...(Array.isArray(server.args) ? { args: server.args.filter((a): a is string => typeof a === 'string') } : {}),
    ...(env ? { env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')) } : {}),
    ...(url ? { url } : {}),
  };
}
