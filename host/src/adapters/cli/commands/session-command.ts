import { resolve } from 'node:path';
import type { HostServices } from '../../../host-services.js';
import { spawnPty } from '../../../features/terminals/index.js';
import { attachLocalTerminal } from '../attach-local-terminal.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { requireTerminal } from '../require-terminal.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'svc session --provider <id> [--connection <name>] [--resume <id> | --continue] [--model <m>] [--cwd <dir>]';

/** An interactive CLI session through the host's PTY, attached to this terminal. */
export async function sessionCommand(args: string[], io: CliIo, open: () => Promise<HostServices>, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      provider: { type: 'string', short: 'p' },
      connection: { type: 'string' },
      resume: { type: 'string', short: 'r' },
      continue: { type: 'boolean', short: 'c' },
      model: { type: 'string', short: 'm' },
      cwd: { type: 'string' },
    },
    USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.resume && values.continue) throw new UsageError('--resume and --continue exclude each other');
  const services = await open();
  const provider = values.provider ?? (values.connection ? services.connections.get(values.connection).providerId : undefined);
  if (!provider) throw new UsageError(`--provider is required\nusage: ${USAGE}`);
  const target = await services.extensions.prepare(provider, { connection: values.connection });
  const resume = Boolean(values.resume || values.continue);
  const description = await services.extensions.buildSessionProcess(target, {
    mode: resume ? 'resume' : 'fresh',
    ...(values.resume ? { sessionId: values.resume } : {}),
    cwd: resolve(io.cwd, values.cwd ?? '.'),
    ...(values.model ? { model: values.model } : {}),
  });
  // Checked once the request is known to be valid (its own errors come first), before anything runs.
  requireTerminal(io, 'svc session');
  const term = spawnPty(
    {
      session: description,
      connectionEnv: target.connection?.env,
      cols: io.stdout.columns,
      rows: io.stdout.rows,
    },
    io.env,
  );
  return attachLocalTerminal(term, io, description.initialInput, signal);
}
