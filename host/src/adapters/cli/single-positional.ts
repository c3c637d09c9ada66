import { commandUsage } from './command-usage.js';
import type { CliCommand, CliRun } from './cli-command.js';
import { UsageError } from './usage-error.js';

/** The one positional argument a command takes (`<id|name>`), or a usage error naming it. */
export function singlePositional(run: CliRun, command: Pick<CliCommand, 'group' | 'name' | 'positionals' | 'options' | 'json'>, what: string): string {
  if (run.positionals.length !== 1) throw new UsageError(`expected exactly one ${what}\nusage: ${commandUsage(command as CliCommand)}`);
  return run.positionals[0]!;
}
