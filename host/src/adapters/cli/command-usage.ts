import type { CliCommand } from './cli-command.js';

/** `svc task create <title> [options]`: the words a person types. */
export function commandUsage(command: CliCommand): string {
  const words = ['svc', command.group, command.name, command.positionals ?? '', Object.keys(command.options).length > 0 || command.json ? '[options]' : ''];
  return words.filter(Boolean).join(' ');
}
