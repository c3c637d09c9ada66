// The environment a running task terminal's CLI gives its `svc` MCP server, read from the CLI's own
// command line (Qwen Code takes its MCP configuration as `--mcp-config <json>`): a test then talks to
// `svc mcp` exactly as the terminal's agent would, with the execution's credential (in the run's
// secrets file the environment names, never on the command line).
import { readFileSync } from 'node:fs';

export function taskTerminalMcpEnv(pid: number): Record<string, string> {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = args.indexOf('--mcp-config');
  if (at === -1) throw new Error(`process ${pid} was not given --mcp-config: ${args.join(' ')}`);
  const config = JSON.parse(args[at + 1]!) as { mcpServers: Record<string, { env?: Record<string, string> }> };
  const env = config.mcpServers.svc?.env;
  if (!env) throw new Error(`process ${pid} has no svc MCP server: ${args[at + 1]}`);
  return env;
}
