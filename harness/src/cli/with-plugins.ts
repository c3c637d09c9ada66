import type { CliCommand } from '@svc-org/host/adapters/cli';

/** Commands that run the plugins' operations: svc opens the host with its plugins for them. */
export function withPlugins(commands: readonly CliCommand[]): CliCommand[] {
  return commands.map((command) => ({ ...command, plugins: true }));
}
