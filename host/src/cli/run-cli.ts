import { SvcError } from '@svc-org/ai-sdk';
import { HOST_VERSION } from '../config/host-version.js';
import { openHostServices, type HostServices } from '../host-services.js';
import type { CliIo } from './cli-io.js';
import { CONFIG_USAGE, configCommand } from './commands/config-command.js';
import { CONNECTION_USAGE, connectionCommand } from './commands/connection-command.js';
import { EXT_USAGE, extCommand } from './commands/ext-command.js';
import { LABEL_USAGE, labelCommand } from './commands/label-command.js';
import { PROJECT_USAGE, projectCommand } from './commands/project-command.js';
import { SERVE_USAGE } from './commands/serve-usage.js';
import { TASK_USAGE, taskCommand } from './commands/task-command.js';
import { WORKSPACE_USAGE, workspaceCommand } from './commands/workspace-command.js';
import { INTEGRATION_USAGE, integrationCommand } from './commands/integration-command.js';
import { modelsCommand } from './commands/models-command.js';
import { QUERY_USAGE, queryCommand } from './commands/query-command.js';
import { sessionCommand } from './commands/session-command.js';
import { printError } from './print-error.js';
import { UsageError } from './usage-error.js';

export const USAGE = `svc ${HOST_VERSION} — host for command-line AI tool providers

usage:
${EXT_USAGE}
${QUERY_USAGE}
svc session --provider <id> [--connection <name>] [--resume <id> | --continue] [--model <m>]
svc models --provider <id> [--connection <name>] [--json]
${CONNECTION_USAGE}
${CONFIG_USAGE}
${INTEGRATION_USAGE}
${SERVE_USAGE}
${WORKSPACE_USAGE}
${PROJECT_USAGE}
${LABEL_USAGE}
${TASK_USAGE}

Data lives in $SVC_HOME (default ~/.svc).`;

/** Runs one `svc` invocation and resolves with its exit status. */
export async function runCli(argv: string[], io: CliIo, signal: AbortSignal = new AbortController().signal): Promise<number> {
  let services: HostServices | undefined;
  const open = async () => (services ??= await openHostServices({ env: io.env }));
  try {
    const [command, ...args] = argv;
    switch (command) {
      case 'ext':
        return await extCommand(args, io, open, signal);
      case 'query':
        return await queryCommand(args, io, open, signal);
      case 'session':
        return await sessionCommand(args, io, open, signal);
      case 'models':
        return await modelsCommand(args, io, open, signal);
      case 'connection':
        return await connectionCommand(args, io, open);
      case 'config':
        return await configCommand(args, io, open);
      case 'integration':
        return await integrationCommand(args, io, open, signal);
      case 'serve': {
        // Loaded on demand: the HTTP stack is for the service only, not for every `svc` command.
        const { serveCommand } = await import('./commands/serve-command.js');
        return await serveCommand(args, io, signal);
      }
      case 'workspace':
        return await workspaceCommand(args, io, open);
      case 'project':
        return await projectCommand(args, io, open);
      case 'label':
        return await labelCommand(args, io, open);
      case 'task':
        return await taskCommand(args, io, open, signal);
      case 'version':
      case '--version':
      case '-v':
        io.stdout.write(`${HOST_VERSION}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    printError(io, error, services?.logger.redactor);
    if (SvcError.isInstance(error) && error.code === 'usage') return 2;
    return 1;
  } finally {
    await services?.close();
  }
}
