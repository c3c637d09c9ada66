import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  configLocationEnv,
  type AdapterMethodArgs,
  type HookEntry,
  type IntegrationChange,
  type IntegrationMethodName,
  type IntegrationRemoval,
  type McpServerEntry,
} from '@svc-org/ai-sdk';
import type { HostServices } from '../../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';
import { terminalJson, terminalLine } from '../terminal-text.js';

export const INTEGRATION_USAGE = `svc integration mcp list|add|remove --provider <id> [--scope user|project] [--project-dir <dir>]
    add: <name> (--command <cmd> [--arg <a>]... [--env K=V]... | --url <url>)   remove: <name> [--force]
svc integration hooks list|add|remove --provider <id> [--matcher <tool pattern>] [--command <cmd>] [--scope …] [--force]
svc integration skills list|add|remove --provider <id> [<name> --file <SKILL.md>] [--scope …] [--force]
  list marks each entry "svc" (written by svc) or "other" (there before, or added by someone else);
  remove refuses an entry svc did not write unless --force, and an entry that is not there.`;

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
  force: { type: 'boolean' },
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
  const target = await services.extensions.prepare(provider, { connection: values.connection, signal });
  // The CLI finds its configuration through variables such as CODEX_HOME: the provider gets those
  // (and only those) of the environment the CLI would run in, so it edits the file the CLI reads.
  const env = configLocationEnv({ ...io.env, ...target.connection?.env });
  const scope: IntegrationRemoval = {
    ...(values.scope === 'project' ? { scope: 'project' as const, projectDir: resolve(values['project-dir'] ?? io.cwd) } : { scope: 'user' as const }),
    env,
    ...(values.force ? { force: true } : {}),
  };
  const call = <M extends IntegrationMethodName>(method: M, ...callArgs: AdapterMethodArgs<M>) => services.extensions.integration(target, method, callArgs);
  // What changed and where, from what the provider answered (older providers answer nothing).
  const report = (verb: string, what: string, known: IntegrationChange | undefined) => {
    const where = known?.configPath ? ` ${verb === 'removed' ? 'from' : 'in'} ${known.configPath}` : '';
    const whose = verb === 'removed' && known?.origin === 'other' ? ' (it was not written by svc)' : '';
    const unchanged = known?.changed === false ? ' (already there, nothing changed)' : '';
    io.stdout.write(`${terminalLine(`${verb} ${what}${where}${whose}${unchanged}`)}\n`);
  };

  if (action === 'list') {
    const inspection = await call(`${kind}.inspect`, scope);
    if (values.json) {
      io.stdout.write(`${terminalJson(JSON.stringify(inspection, null, 2))}\n`);
      return 0;
    }
    if (inspection.configPath) io.stdout.write(`${terminalLine(inspection.configPath)}\n`);
    if (inspection.entries.length === 0) io.stdout.write(`  (no ${kind} entries)\n`);
    for (const entry of inspection.entries) io.stdout.write(`${terminalLine(`  ${(entry.origin ?? '?').padEnd(5)}  ${describeEntry(kind, entry)}`)}\n`);
    return 0;
  }

  const name = positionals[0];
  if (kind === 'mcp') {
    if (!name) throw new UsageError(`a server name is required\nusage:\n${INTEGRATION_USAGE}`);
    if (action === 'remove') {
      report('removed', `MCP server ${name}`, await call('mcp.uninstall', name, scope));
      return 0;
    }
    if (!values.command === !values.url) throw new UsageError('give exactly one of --command or --url');
    const entry: McpServerEntry = values.url
      ? { name, url: values.url }
      : { name, command: values.command, args: values.arg ?? [], ...(values.env ? { env: parseEnv(values.env) } : {}) };
    report('added', `MCP server ${name}`, await call('mcp.install', entry, scope));
    return 0;
  }
  if (kind === 'hooks') {
    if (!values.matcher || !values.command) throw new UsageError('hooks add/remove need --matcher and --command');
    const entry: HookEntry = { event: 'PreToolUse', matcher: values.matcher, command: values.command };
    const change = await call(action === 'add' ? 'hooks.install' : 'hooks.uninstall', entry, scope);
    report(action === 'add' ? 'added' : 'removed', `PreToolUse hook ${values.matcher} → ${values.command}`, change);
    return 0;
  }
  if (!name) throw new UsageError(`a skill name is required\nusage:\n${INTEGRATION_USAGE}`);
  if (action === 'remove') {
    report('removed', `skill ${name}`, await call('skills.uninstall', name, scope));
    return 0;
  }
  if (!values.file) throw new UsageError('skills add needs --file <SKILL.md>');
  report('added', `skill ${name}`, await call('skills.install', { name, content: await readFile(resolve(io.cwd, values.file), 'utf8') }, scope));
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
