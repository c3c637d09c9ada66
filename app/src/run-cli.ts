import { SvcError } from '@svc-org/ai-sdk';
import { commandGroups, commandNames, loadAllCommands, loadCommand, loadGroupCommands } from './cli/command-table.js';
import { closestName, HOST_VERSION, resolveSvcHome } from '@svc-org/host/platform/config';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { OperationInvoker, OperationRegistry, type OperationRemote } from '@svc-org/host/operation-framework';
import type { CliCommand, CliValues } from '@svc-org/host/adapters/cli/cli-command';
import type { CliIo } from '@svc-org/host/adapters/cli/cli-io';
import { commandUsage } from '@svc-org/host/adapters/cli/command-usage';
import { formatCommandHelp } from '@svc-org/host/adapters/cli/format-command-help';
import { formatGroupHelp } from '@svc-org/host/adapters/cli/format-group-help';
import { formatUsage } from '@svc-org/host/adapters/cli/format-usage';
import { parseCommandArgs } from '@svc-org/host/adapters/cli/parse-command-args';
import { printError } from '@svc-org/host/adapters/cli/print-error';
import { styleFor } from '@svc-org/host/adapters/cli/style';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

const HELP = new Set(['--help', '-h']);

/** Runs one `svc` invocation and resolves with its exit status. */
export async function runCli(argv: string[], io: CliIo, signal: AbortSignal = new AbortController().signal): Promise<number> {
  let services: HostServices | undefined;
  let extensions = true;
  let plugins = false;
  let readOnly = false;
  // A command that runs a plugin's operations opens the host with the plugins (the harness): their
  // migrations run and their stores are made before the command runs. Other commands evaluate none of them.
  const open = async () => (services ??= await openHostServices({ env: io.env, extensions, readOnly, plugins: plugins ? (await import('./host-plugins.js')).HOST_PLUGINS : [] }));
  const style = styleFor(io.stdout, io.env);
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === 'help' || HELP.has(first)) {
      io.stdout.write(formatUsage(await loadAllCommands(), style));
      return first === undefined ? 2 : 0;
    }
    if (first === 'version' || first === '--version' || first === '-v') {
      io.stdout.write(`${HOST_VERSION}\n`);
      return 0;
    }
    const { command, args } = await findCommand(first, rest, io, style);
    if (!command) return 0;
    extensions = command.extensions !== false;
    plugins = command.plugins === true;
    readOnly = command.readsOnly === true;
    const end = args.indexOf('--');
    if ((end === -1 ? args : args.slice(0, end)).some((arg) => HELP.has(arg))) {
      io.stdout.write(formatCommandHelp(command, styleFor(io.stdout, io.env)));
      return 0;
    }
    const invoker = new OperationInvoker({
      // Commands pass the operation itself, never a name: the registry holds the command's own.
      registry: new OperationRegistry(new Set([command.operation, ...(command.alsoUses ?? [])].filter((operation) => operation !== undefined))),
      services: open,
      caller: { via: 'cli' },
      remote: () => serviceRemote(resolveSvcHome(io.env)),
    });
    let values: CliValues = {};
    let positionals: string[] = args;
    if (!command.raw) {
      const options = { ...command.options, ...(command.json ? { json: { type: 'boolean' as const } } : {}) };
      // The usage line its help page shows.
      const parsed = parseCommandArgs(args, options, commandUsage(command));
      values = parsed.values as CliValues;
      positionals = parsed.positionals;
    }
    return await command.run({
      io,
      signal,
      values,
      positionals,
      args,
      json: Boolean(values.json),
      style,
      open,
      invoke: (operation, input, progress, options) => invoker.invoke(operation, input, signal, progress, options),
      allCommands: loadAllCommands,
    });
  } catch (error) {
    printError(io, error, services?.logger.redactor);
    if (SvcError.isInstance(error) && error.code === 'usage') return 2;
    return 1;
  } finally {
    await services?.close();
  }
}

/**
 * The running service, reached when an operation is forwarded: the client is imported then, so a
 * command answered from the database never evaluates it (its install token loads node:crypto, its
 * server file node:child_process). Direct, not through client/index.ts: no HTTP stack of `svc serve`.
 * With no service running, the call fails with `server_not_running`, as connecting did.
 */
function serviceRemote(svcHome: string): OperationRemote {
  return {
    async invoke(name, input, signal) {
      const { ServiceClient } = await import('@svc-org/host/client/service-client');
      return ServiceClient.connect(svcHome).invoke(name, input, signal);
    },
  };
}

/** `svc <group> [<name>]`: the command, or the group's help (command undefined), or a usage error. */
async function findCommand(group: string, rest: string[], io: CliIo, style: ReturnType<typeof styleFor>): Promise<{ command?: CliCommand; args: string[] }> {
  const names = commandNames(group);
  if (names.length === 0) {
    const guess = closestName(group, commandGroups());
    throw new UsageError(`unknown command "${group}"${guess ? ` — did you mean \`svc ${guess}\`?` : ''}\nrun \`svc --help\` for the list`);
  }
  if (names.includes('')) {
    // A single-command group's subcommand (`svc mcp token`) when its name comes first.
    const [name, ...args] = rest;
    if (name !== undefined && name !== '' && names.includes(name)) return { command: await loadCommand(group, name), args };
    return { command: await loadCommand(group, ''), args: rest };
  }
  const [name, ...args] = rest;
  if (name === undefined || HELP.has(name) || name === 'help') {
    io.stdout.write(formatGroupHelp(group, await loadGroupCommands(group), style));
    if (name === undefined) throw new UsageError(`say which ${group} command (see above)`);
    return { args: [] };
  }
  // `svc ext info`: the older spelling of `svc ext show`.
  const command = names.includes(name) ? await loadCommand(group, name) : group === 'ext' && name === 'info' ? await loadCommand('ext', 'show') : undefined;
  if (command) return { command, args };
  const guess = closestName(name, names);
  const unknown = new UsageError(
    `unknown ${group} command "${name}"${guess ? ` — did you mean \`svc ${group} ${guess}\`?` : ''}\nrun \`svc ${group} --help\` for the list`,
  );
  // `svc ext` keeps its own dispatcher until extension management moves onto operations: a
  // subcommand it knows and this table does not yet still reaches it.
  if (group === 'ext') return { command: extPassthrough(name, unknown), args };
  throw unknown;
}

function extPassthrough(name: string, unknown: UsageError): CliCommand {
  return {
    group: 'ext',
    name,
    description: `svc ext ${name}`,
    options: {},
    raw: true,
    examples: [],
    async run(run) {
      const { extCommand } = await import('@svc-org/host/adapters/cli/commands/ext-command');
      try {
        return await extCommand([name, ...run.args], run.io, run.open, run.signal, run.invoke);
      } catch (error) {
        if (SvcError.isInstance(error) && error.code === 'usage' && error.message.startsWith(`unknown ext command "${name}"`)) throw unknown;
        throw error;
      }
    },
  };
}
