import type { McpServerEntry } from '@svc-org/ai-sdk';
import { isJsonObject } from '../integrations/parse-json-object.js';

/** An entry as `claude mcp add` writes it (2.1.197): stdio with `args` and `env` always present, or http. */
export function toClaudeMcpServer(entry: McpServerEntry): Record<string, unknown> {
  if (entry.url !== undefined) return { type: 'http', url: entry.url };
  return { type: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {} };
}

/** Reads an entry of any shape the CLI accepts (stdio, sse, http; `type` may be absent for stdio). */
export function fromClaudeMcpServer(name: string, value: unknown): McpServerEntry {
  const server = isJsonObject(value) ? value : {};
  const entry: McpServerEntry = { name };
  if (typeof server.command === 'string') entry.command = server.command;
  if (Array.isArray(server.args)) entry.args = server.args.filter((arg): arg is string => typeof arg === 'string');
  if (isJsonObject(server.env)) {
    entry.env = Object.fromEntries(Object.entries(server.env).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  }
  if (typeof server.url === 'string') entry.url = server.url;
  return entry;
}
