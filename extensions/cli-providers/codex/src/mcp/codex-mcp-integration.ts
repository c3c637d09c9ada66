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
import { codexConfigPath, codexDir } from '../integrations/codex-paths.js';
import { EditRecords } from '../integrations/edit-record.js';
import { parseTomlFile } from '../toml/parse-toml-file.js';
import { installTomlTable, uninstallTomlTable, type TomlTableEdit } from '../toml/toml-table-edits.js';
import { readMcpServers, sameMcpServer } from './read-mcp-servers.js';
import { renderMcpServer } from './render-mcp-server.js';

// `codex mcp add` accepts these names; the same rule keeps the TOML key and messages simple.
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

function checkEntry(entry: McpServerEntry): void {
  if (!SERVER_NAME.test(entry.name)) {
    throw new SvcError({ code: 'invalid_request', message: 'an MCP server name must match [A-Za-z0-9_-]+' });
  }
  if ((entry.command === undefined) === (entry.url === undefined)) {
    throw new SvcError({ code: 'invalid_request', message: `MCP server "${entry.name}" needs exactly one of command (stdio) or url (streamable HTTP)` });
  }
  if (entry.url !== undefined && (entry.args?.length || Object.keys(entry.env ?? {}).length)) {
    throw new SvcError({ code: 'invalid_request', message: `MCP server "${entry.name}": args and env apply to stdio servers only` });
  }
}

/** MCP servers as `[mcp_servers.<name>]` tables of ~/.codex/config.toml (or <project>/.codex/config.toml). */
export class CodexMcpIntegration implements McpIntegration {
  private edit(name: string, scope: IntegrationScope, ctx: AdapterContext): TomlTableEdit {
    return {
      files: ctx.host.files,
      records: new EditRecords(ctx.host.storage, 'codex/mcp/'),
      path: codexConfigPath(scope, ctx),
      name,
      tablePath: ['mcp_servers', name],
      label: `MCP server "${name}"`,
    };
  }

  async inspect(scope: IntegrationScope, ctx: AdapterContext) {
    const configPath = codexConfigPath(scope, ctx);
    const text = await ctx.host.files.readText(configPath);
    const records = new EditRecords(ctx.host.storage, 'codex/mcp/');
    const ours = new Set(await records.names(configPath));
    const servers = text === undefined ? [] : readMcpServers(parseTomlFile(text, configPath));
    return { configPath, entries: servers.map((server) => ({ ...server, origin: ours.has(server.name) ? ('svc' as const) : ('other' as const) })) };
  }

  async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange> {
    checkEntry(entry);
    const edit = this.edit(entry.name, scope, ctx);
    const outcome = await installTomlTable(
      edit,
      (eol) => renderMcpServer(entry, eol),
      (root) => sameMcpServer(root, entry),
    );
    return { configPath: edit.path, changed: outcome === 'written' };
  }

  /**
   * Removes a server svc wrote. A server that is not in the file is `integration_not_found`; one svc
   * did not write is `integration_not_owned` unless `force`. A project file the install created goes
   * with its last server, and so does the `.codex` folder when nothing else is in it.
   */
  async uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange> {
    if (!SERVER_NAME.test(name)) {
      throw new SvcError({ code: 'invalid_request', message: 'an MCP server name must match [A-Za-z0-9_-]+' });
    }
    const edit = this.edit(name, scope, ctx);
    const text = await ctx.host.files.readText(edit.path);
    const present = text !== undefined && readMcpServers(parseTomlFile(text, edit.path)).some((server) => server.name === name);
    const ours = (await edit.records.get(edit.path, name)) !== undefined;
    if (!present) {
      if (ours) await edit.records.delete(edit.path, name);
      throw new SvcError({
        code: ErrorCodes.integrationNotFound,
        message: `there is no MCP server "${name}" in ${edit.path}; nothing was removed`,
        details: { path: edit.path },
      });
    }
    if (!ours && scope.force !== true) {
      throw new SvcError({
        code: ErrorCodes.integrationNotOwned,
        message: `MCP server "${name}" in ${edit.path} was not written by svc (it was there before, or someone else added it); it was left in place`,
        details: { path: edit.path, fix: 'add --force to remove it anyway' },
      });
    }
    await uninstallTomlTable(edit);
    if (scope.scope === 'project' && (await ctx.host.files.readText(edit.path)) === undefined) {
      // Only an empty folder is removed: anything else in .codex stays.
      await ctx.host.files.remove(codexDir(scope, ctx));
    }
    return { configPath: edit.path, changed: true, origin: ours ? 'svc' : 'other' };
  }
}
