// `svc completion bash|zsh|fish` prints the completion script; `svc completion --values <kind>` is
// what the script runs for live values (provider ids, connection names, task ids).
import { databasePath, resolveSvcHome } from '@svc-org/host/platform/config';
import type { CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import type { CliIo } from '@svc-org/host/adapters/cli/cli-io';
import { buildCompletionSpec, COMPLETION_SHELLS, completionScript, LIVE_VALUE_KINDS, liveCompletionValues, type CompletionShell, type LiveValueKind } from '@svc-org/host/adapters/cli/completion';
import { parseCommandArgs } from '@svc-org/host/adapters/cli/parse-command-args';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

export const COMPLETION_USAGE = 'svc completion bash|zsh|fish';

export async function completionCommand(args: string[], io: CliIo, allCommands: () => Promise<readonly CliCommand[]>): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { values: { type: 'string' } }, COMPLETION_USAGE);
  if (values.values !== undefined) {
    const kind = values.values as string;
    if (!(LIVE_VALUE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--values takes one of ${LIVE_VALUE_KINDS.join(', ')}`);
    const found = liveCompletionValues(databasePath(resolveSvcHome(io.env)), kind as LiveValueKind);
    if (found.length > 0) io.stdout.write(`${found.join('\n')}\n`);
    return 0;
  }
  const shell = positionals[0];
  if (positionals.length !== 1 || !(COMPLETION_SHELLS as readonly string[]).includes(shell!)) {
    throw new UsageError(`say which shell: ${COMPLETION_USAGE}`);
  }
  io.stdout.write(completionScript(shell as CompletionShell, buildCompletionSpec(await allCommands())));
  return 0;
}
