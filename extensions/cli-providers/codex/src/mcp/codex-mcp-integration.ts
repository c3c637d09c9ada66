import { SvcError, type AdapterContext, type IntegrationScope, type McpIntegration, type McpServerEntry } from '@svc-org/ai-sdk';
import { codexConfigPath } from '../integrations/codex-paths.js';
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
    return { configPath, entries: text === undefined ? [] : readMcpServers(parseTomlFile(text, configPath)) };
  }

  async install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    checkEntry(entry);
    await installTomlTable(
      this.edit(entry.name, scope, ctx),
      (eol) => renderMcpServer(entry, eol),
      (root) => sameMcpServer(root, entry),
    );
  }

  async uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext): Promise<void> {
    if (!SERVER_NAME.test(name)) {
      throw new SvcError({ code: 'invalid_request', message: 'an MCP server name must match [A-Za-z0-9_-]+' });
    }
    await uninstallTomlTable(this.edit(name, scope, ctx));
  }
}
