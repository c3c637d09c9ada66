import {
  ErrorCodes,
  SvcError,
  type AdapterContext,
  type IntegrationChange,
  type IntegrationRemoval,
  type IntegrationScope,
  type McpIntegration,
  type McpServerEntry,
} from '@svc-org/ai-sdk';
import { isDeepStrictEqual } from 'node:util';
import { mcpConfigPath } from '../integrations/claude-paths.js';
import { EditRecords } from '../integrations/edit-records.js';
import { editJsonText } from '../integrations/edit-json-text.js';
import { installJsonEntry, uninstallJsonEntry } from '../integrations/json-file-edit.js';
import { detectJsonFormat } from '../integrations/json-text-format.js';
import { isJsonObject, parseJsonObject } from '../integrations/parse-json-object.js';
import { fromClaudeMcpServer, toClaudeMcpServer } from './claude-mcp-server.js';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

function checkEntry(entry: McpServerEntry): void {
  if (!NAME.test(entry.name)) {
    throw new SvcError({ code: 'invalid_request', message: 'an MCP server name must be 1-64 letters, digits, "_" or "-"' });
  }
  if ((entry.url === undefined) === (entry.command === undefined)) {
    throw new SvcError({ code: 'invalid_request', message: 'an MCP server needs either a command or a url' });
  }
}

/** MCP servers in Claude Code's own files: `mcpServers` of ~/.claude.json (user) or <dir>/.mcp.json (project). */
export function createClaudeMcpIntegration(): McpIntegration {
  const records = (ctx: AdapterContext) => new EditRecords(ctx.host.storage, 'mcp');
  return {
    async inspect(scope: IntegrationScope, ctx: AdapterContext) {
      const configPath = mcpConfigPath(scope, ctx);
      const text = await ctx.host.files.readText(configPath);
      const servers = text === undefined ? undefined : parseJsonObject(text, configPath).mcpServers;
      const ours = new Set(await records(ctx).names(configPath));
      const entries = isJsonObject(servers)
        ? Object.entries(servers).map(([name, value]) => ({ ...fromClaudeMcpServer(name, value), origin: ours.has(name) ? ('svc' as const) : ('other' as const) }))
        : [];
      return { configPath, entries };
    },

    async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange> {
      checkEntry(entry);
      const path = mcpConfigPath(scope, ctx);
      const wanted = toClaudeMcpServer(entry);
      const before = await ctx.host.files.readText(path);
      await installJsonEntry(ctx, { records: records(ctx), path, name: entry.name }, (doc, ours) => {
        const created: string[] = [];
        if (!isJsonObject(doc.mcpServers)) {
          if (doc.mcpServers !== undefined) {
            throw new SvcError({ code: 'integration_config_invalid', message: `${path}: mcpServers is not an object; it was left unchanged` });
          }
          doc.mcpServers = {};
          created.push('mcpServers');
        }
        const servers = doc.mcpServers as Record<string, unknown>;
        const existing = servers[entry.name];
        if (existing !== undefined && isDeepStrictEqual(existing, wanted)) return { changed: false, created };
        if (existing !== undefined && !ours) {
          throw new SvcError({
            code: 'integration_conflict',
            message: `${path} already has an MCP server "${entry.name}" that svc did not write; it was left unchanged`,
          });
        }
        servers[entry.name] = wanted;
        return { changed: true, created };
      });
      return { configPath: path, changed: (await ctx.host.files.readText(path)) !== before };
    },

    async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
      const path = mcpConfigPath(scope, ctx);
      const text = await ctx.host.files.readText(path);
      const servers = text === undefined ? undefined : parseJsonObject(text, path).mcpServers;
      const ours = (await records(ctx).get(path, name)) !== undefined;
      if (!isJsonObject(servers) || !(name in servers)) {
        if (ours) await records(ctx).delete(path, name);
        throw new SvcError({ code: ErrorCodes.integrationNotFound, message: `there is no MCP server "${name}" in ${path}; nothing was removed`, details: { path } });
      }
      if (!ours) {
        if (scope.force !== true) {
          throw new SvcError({
            code: ErrorCodes.integrationNotOwned,
            message: `MCP server "${name}" in ${path} was not written by svc (it was there before, or someone else added it); it was left in place`,
            details: { path, fix: 'add --force to remove it anyway, or use `claude mcp remove`' },
          });
        }
        const doc = parseJsonObject(text!, path);
        const after = structuredClone(doc);
        delete (after.mcpServers as Record<string, unknown>)[name];
        await ctx.host.files.writeText(path, editJsonText(text!, doc, after, detectJsonFormat(text!)));
        return { configPath: path, changed: true, origin: 'other' };
      }
      await uninstallJsonEntry(ctx, { records: records(ctx), path, name }, (doc, created) => {
        if (!isJsonObject(doc.mcpServers)) return;
        delete doc.mcpServers[name];
        if (created.includes('mcpServers') && Object.keys(doc.mcpServers).length === 0) delete doc.mcpServers;
      });
      return { configPath: path, changed: true, origin: 'svc' };
    },
  };
}
