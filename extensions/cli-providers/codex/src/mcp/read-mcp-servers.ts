import type { McpServerEntry } from '@svc-org/ai-sdk';
import type { TomlTable, TomlValue } from '../toml/toml-value.js';

const isTable = (value: TomlValue | undefined): value is TomlTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `mcp_servers` entries of a parsed config, as the contract's McpServerEntry. */
export function readMcpServers(root: TomlTable): McpServerEntry[] {
  const servers = root.mcp_servers;
  if (!isTable(servers)) return [];
  return Object.entries(servers).flatMap(([name, server]) => {
    if (!isTable(server)) return [];
    const entry: McpServerEntry = { name };
    if (typeof server.command === 'string') entry.command = server.command;
    if (Array.isArray(server.args)) entry.args = server.args.filter((arg): arg is string => typeof arg === 'string');
    if (isTable(server.env)) {
      entry.env = Object.fromEntries(Object.entries(server.env).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
    }
    if (typeof server.url === 'string') entry.url = server.url;
    return [entry];
  });
}

/** Same server: the fields the contract knows are equal and the table holds nothing else. */
export function sameMcpServer(root: TomlTable, entry: McpServerEntry): boolean {
  const servers = root.mcp_servers;
  const raw = isTable(servers) ? servers[entry.name] : undefined;
  if (!isTable(raw)) return false;
  const known = new Set(['command', 'args', 'env', 'url']);
  if (Object.keys(raw).some((key) => !known.has(key))) return false;
  const [existing] = readMcpServers({ mcp_servers: { [entry.name]: raw } });
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return (
    existing !== undefined &&
    existing.command === entry.command &&
    existing.url === entry.url &&
    same(existing.args ?? [], entry.args ?? []) &&
    same(Object.entries(existing.env ?? {}).sort(), Object.entries(entry.env ?? {}).sort())
  );
}
