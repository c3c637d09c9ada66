import type { McpServerEntry } from '@svc-org/ai-sdk';
import { tomlKey, tomlString, tomlStringArray } from '../toml/format-toml.js';

/** The `[mcp_servers.<name>]` table in the layout `codex mcp add` writes (env as a sub-table). */
export function renderMcpServer(entry: McpServerEntry, eol: string): string {
  const table = `mcp_servers.${tomlKey(entry.name)}`;
  const lines = [`[${table}]`];
  if (entry.url !== undefined) lines.push(`url = ${tomlString(entry.url)}`);
  if (entry.command !== undefined) lines.push(`command = ${tomlString(entry.command)}`);
  if (entry.args && entry.args.length > 0) lines.push(`args = ${tomlStringArray(entry.args)}`);
  const env = Object.entries(entry.env ?? {});
  if (env.length > 0) {
    lines.push('', `[${table}.env]`);
    for (const [name, value] of env) lines.push(`${tomlKey(name)} = ${tomlString(value)}`);
  }
  return lines.join(eol) + eol;
}
