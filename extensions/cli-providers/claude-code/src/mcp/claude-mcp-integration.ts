import { SvcError, type AdapterContext, type IntegrationScope, type McpIntegration, type McpServerEntry } from '@svc-org/ai-sdk';
import { isDeepStrictEqual } from 'node:util';
import { mcpConfigPath } from '../integrations/claude-paths.js';
import { EditRecords } from '../integrations/edit-records.js';
import { installJsonEntry, uninstallJsonEntry } from '../integrations/json-file-edit.js';
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
      const entries = isJsonObject(servers) ? Object.entries(servers).map(([name, value]) => fromClaudeMcpServer(name, value)) : [];
      return { configPath, entries };
    },

    async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext) {
      checkEntry(entry);
      const path = mcpConfigPath(scope, ctx);
      const wanted = toClaudeMcpServer(entry);
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
    },

    async uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext) {
      const path = mcpConfigPath(scope, ctx);
      await uninstallJsonEntry(ctx, { records: records(ctx), path, name }, (doc, created) => {
        if (!isJsonObject(doc.mcpServers)) return;
        delete doc.mcpServers[name];
        if (created.includes('mcpServers') && Object.keys(doc.mcpServers).length === 0) delete doc.mcpServers;
      });
    },
  };
}
