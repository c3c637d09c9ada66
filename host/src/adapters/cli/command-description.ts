import type { CliCommand } from './cli-command.js';

/** A command's one line: its own, or its operation's. */
export function commandDescription(command: CliCommand): string {
  return command.description ?? command.operation?.description ?? '';
}
