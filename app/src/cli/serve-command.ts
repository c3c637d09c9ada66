import { describeNodeLine, HOST_VERSION, nodeLineNote } from '@svc-org/host/platform/config';
import type { LogLevel } from '@svc-org/host/platform/logging';
import { startService } from '../start-service.js';
import { streamOf, type CliIo } from '@svc-org/host/adapters/cli/cli-io';
import { parseCommandArgs } from '@svc-org/host/adapters/cli/parse-command-args';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

const SERVE_USAGE = 'svc serve [--port <n>] [--stop-terminals]   (port: default $SVC_PORT or 7878; 0 picks a free port)';

/**
 * Runs the host service until SIGINT/SIGTERM. The task terminals keep running in their holder for
 * the next `svc serve`; with --stop-terminals (or the holder off) every terminal is ended first.
 */
export async function serveCommand(args: string[], io: CliIo, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { port: { type: 'string' }, 'stop-terminals': { type: 'boolean' } }, SERVE_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${SERVE_USAGE}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !Number.isInteger(port)) throw new UsageError(`--port takes a number\nusage: ${SERVE_USAGE}`);
  // The service's own lines go through the streams its log lines (on stderr) also use, in order.
  const stdout = streamOf(io.stdout);
  const stderr = streamOf(io.stderr);
  const running = await startService({
    env: io.env,
    port,
    stderrLogLevel: (io.env.SVC_LOG_LEVEL as LogLevel | undefined) ?? 'warn',
  });
  stdout.write(`svc ${HOST_VERSION} serving on ${running.url} (data in ${running.services.svcHome})\n`);
  // Said once per start: a Node past its end of life, and what the hardened mode lacks on it.
  const nodeNote = nodeLineNote(describeNodeLine());
  if (nodeNote) stderr.write(`note: ${nodeNote}\n`);
  stdout.write(`web UI: open ${running.loginUrl()} (a one-time link; \`svc open\` prints a fresh one)\n`);
  if (running.recovery.reattach.length > 0) stdout.write(`took back ${running.recovery.reattach.length} running task terminal(s) from the terminal holder\n`);
  if (running.recovery.endedAway.length > 0) stdout.write(`recorded ${running.recovery.endedAway.length} task terminal(s) that ended while the service was away\n`);
  if (running.recovery.interrupted.length > 0) {
    stdout.write(
      `${running.recovery.interrupted.length} execution(s) left live by the previous service ended as interrupted (resume a task to continue it)` +
        `${running.recovery.killed.length > 0 ? `; killed ${running.recovery.killed.length} leftover process tree(s)` : ''}\n`,
    );
  }
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  const stopTerminals = values['stop-terminals'] === true || !running.terminals.heldByHolder;
  stdout.write(stopTerminals ? 'stopping: ending every terminal\n' : 'stopping: the task terminals keep running in the terminal holder\n');
  await running.close({ stopTerminals });
  stdout.write('stopped\n');
  return 0;
}
