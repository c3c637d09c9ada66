import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HookEntry, IntegrationScope, McpServerEntry } from '@svc-org/ai-sdk';
import type { IntegrationKind } from '../../extensions/index.js';
import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

export const INTEGRATION_USAGE = `svc integration mcp list|add|remove --provider <id> [--scope user|project] [--project-dir <dir>]
    add: <name> (--command <cmd> [--arg <a>]... [--env K=V]... | --url <url>)   remove: <name>
svc integration hooks list|add|remove --provider <id> [--matcher <tool pattern>] [--command <cmd>] [--scope …]
svc integration skills list|add|remove --provider <id> [<name> --file <SKILL.md>] [--scope …]`;

const OPTIONS = {
  provider: { type: 'string', short: 'p' },
  connection: { type: 'string' },
  scope: { type: 'string' },
  'project-dir': { type: 'string' },
  command: { type: 'string' },
  arg: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  url: { type: 'string' },
  matcher: { type: 'string' },
  file: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Installs and removes entries in a CLI's own configuration, through its provider's integration. */
export async function integrationCommand(args: string[], io: CliIo, open: () => Promise<HostServices>, signal: AbortSignal): Promise<number> {
  const [kind, action, ...rest] = args;
  if (kind !== 'mcp' && kind !== 'hooks' && kind !== 'skills') throw new UsageError(`unknown integration "${kind ?? ''}"\nusage:\n${INTEGRATION_USAGE}`);
  if (action !== 'list' && action !== 'add' && action !== 'remove') throw new UsageError(`unknown action "${action ?? ''}"\nusage:\n${INTEGRATION_USAGE}`);
  const { values, positionals } = parseCommandArgs(rest, OPTIONS, INTEGRATION_USAGE);
  const services = await open();
  const provider = values.provider ?? (values.connection ? services.connections.get(values.connection).providerId : undefined);
  if (!provider) throw new UsageError(`--provider is required\nusage:\n${INTEGRATION_USAGE}`);
  if (values.scope && values.scope !== 'user' && values.scope !== 'project') throw new UsageError('--scope is user or project');
  const scope: IntegrationScope = values.scope === 'project' ? { scope: 'project', projectDir: resolve(values['project-dir'] ?? io.cwd) } : { scope: 'user' };
  const target = await services.extensions.prepare(provider, { connection: values.connection, signal });
  const call = (operation: 'inspect' | 'install' | 'uninstall', ...callArgs: unknown[]) =>
    services.extensions.integration(target, kind as IntegrationKind, operation, callArgs);

  if (action === 'list') {
    const inspection = (await call('inspect', scope)) as { configPath?: string; entries: unknown[] };
    if (values.json) {
      io.stdout.write(`${JSON.stringify(inspection, null, 2)}\n`);
      return 0;
    }
    if (inspection.configPath) io.stdout.write(`${inspection.configPath}\n`);
    if (inspection.entries.length === 0) io.stdout.write(`  (no ${kind} entries)\n`);
    for (const entry of inspection.entries) io.stdout.write(`  ${describeEntry(kind, entry)}\n`);
    return 0;
  }

  const name = positionals[0];
  if (kind === 'mcp') {
    if (!name) throw new UsageError(`a server name is required\nusage:\n${INTEGRATION_USAGE}`);
    if (action === 'remove') {
      await call('uninstall', name, scope);
      io.stdout.write(`removed MCP server ${name}\n`);
      return 0;
    }
    if (!values.command === !values.url) throw new UsageError('give exactly one of --command or --url');
    const entry: McpServerEntry = values.url
      ? { name, url: values.url }
      : { name, command: values.command, args: values.arg ?? [], ...(values.env ? { env: parseEnv(values.env) } : {}) };
    await call('install', entry, scope);
    io.stdout.write(`added MCP server ${name}\n`);
    return 0;
  }
  if (kind === 'hooks') {
    if (!values.matcher || !values.command) throw new UsageError('hooks add/remove need --matcher and --command');
    const entry: HookEntry = { event: 'PreToolUse', matcher: values.matcher, command: values.command };
    await call(action === 'add' ? 'install' : 'uninstall', entry, scope);
    io.stdout.write(`${action === 'add' ? 'added' : 'removed'} PreToolUse hook ${values.matcher} → ${values.command}\n`);
    return 0;
  }
  if (!name) throw new UsageError(`a skill name is required\nusage:\n${INTEGRATION_USAGE}`);
  if (action === 'remove') {
    await call('uninstall', name, scope);
    io.stdout.write(`removed skill ${name}\n`);
    return 0;
  }
  if (!values.file) throw new UsageError('skills add needs --file <SKILL.md>');
  await call('install', { name, content: await readFile(resolve(io.cwd, values.file), 'utf8') }, scope);
  io.stdout.write(`added skill ${name}\n`);
  return 0;
}

function describeEntry(kind: string, entry: unknown): string {
  const e = entry as Record<string, unknown>;
  if (kind === 'mcp') return `${String(e.name)}  ${e.url ? String(e.url) : [e.command, ...((e.args as string[]) ?? [])].join(' ')}`;
  if (kind === 'hooks') return `${String(e.event)} ${String(e.matcher)} → ${String(e.command)}`;
  return String(e.name);
}

function parseEnv(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError('--env takes KEY=VALUE');
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}
