import {
  SvcError,
  type AdapterContext,
  type IntegrationInspection,
  type IntegrationScope,
  type McpIntegration,
  type McpServerEntry,
} from '@svc-org/ai-sdk';
import { GeminiErrorCodes } from '../gemini-error-codes.js';
import { IntegrationRecords, mergeFileState } from './integration-records.js';
import { settingsPath } from './integration-paths.js';
import { guardSettings, readSettingsFile } from './read-settings-file.js';
import { addSettingsEntry, removeSettingsEntry, type EntrySpec } from './settings-entry-editor.js';

/**
 * MCP servers in the `mcpServers` object of settings.json, in the shape `gemini mcp add` writes:
 * `{command, args?, env?}` for stdio, `{url, type: "http"}` for a streamable HTTP server.
 */
export class GeminiMcpIntegration implements McpIntegration {
  async inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<McpServerEntry>> {
    const file = await readSettingsFile(settingsPath(scope, ctx), ctx);
    const servers = file.root?.value && (file.root.value as Record<string, unknown>).mcpServers;
    const entries: McpServerEntry[] = [];
    if (typeof servers === 'object' && servers !== null && !Array.isArray(servers)) {
      for (const [name, value] of Object.entries(servers as Record<string, unknown>)) entries.push(entryOf(name, value));
    }
    return { configPath: file.path, entries };
  }

  async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const spec = specOf(entry);
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    let text = file.text;
    let state = await records.fileState(path);
    let outcome = guardSettings(path, () => addSettingsEntry(text, spec));
    if (outcome.kind === 'present') return;
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
  }

  async uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    const path = settingsPath(scope, ctx);
    const records = new IntegrationRecords(ctx.host.storage);
    const file = await readSettingsFile(path, ctx);
    const placement = await records.placement('mcp', path, name);
    const spec = specOf({ name, command: 'unused' });
    const present = file.root?.members.find((m) => m.key === 'mcpServers')?.node;
    const exists = present?.kind === 'object' && present.members.some((m) => m.key === name);
    if (!exists) {
      await records.deletePlacement('mcp', path, name);
      return;
    }
    if (!placement) {
      throw new SvcError({
        code: GeminiErrorCodes.integrationNotOwned,
        message: `svc did not install the MCP server "${name}" in ${path}; remove it with \`gemini mcp remove\` or by hand`,
      });
    }
    const state = await records.fileState(path);
    const final = guardSettings(path, () => removeSettingsEntry(file.text!, spec, placement, state));
    if (final.kind === 'removed') {
      if (final.text === undefined) await ctx.host.files.remove(path);
      else await ctx.host.files.writeText(path, final.text);
      await records.setFileState(path, final.state);
    }
    await records.deletePlacement('mcp', path, name);
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
