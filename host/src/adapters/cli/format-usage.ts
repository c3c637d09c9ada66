import { HOST_VERSION } from '../../platform/config/index.js';
import type { CliCommand } from './cli-command.js';
import { commandDescription } from './command-description.js';
import type { Style } from './style.js';

/** `svc --help`: every command in one line each, by group. */
export function formatUsage(all: readonly CliCommand[], style: Style): string {
  const commands = all.filter((command) => !command.subcommand);
  const width = Math.max(...commands.map((command) => `${command.group} ${command.name}`.trim().length));
  const lines = [`${style.bold(`svc ${HOST_VERSION}`)} — host for command-line AI tool providers`, '', `${style.bold('usage:')} svc <command> [options]`, ''];
  let group: string | undefined;
  for (const command of commands) {
    if (command.name !== '' && command.group !== group) lines.push('');
    group = command.group;
    lines.push(`  ${`${command.group} ${command.name}`.trim().padEnd(width)}  ${commandDescription(command)}`);
  }
  lines.push(
    '',
    'Run `svc <command> --help` (or `svc <group> --help`) for options and an example.',
    '`--json` prints the record or result of a command as JSON. Colour only on a terminal (NO_COLOR turns it off).',
    'Data lives in $SVC_HOME (default ~/.svc).',
  );
  return `${lines.join('\n')}\n`;
}
