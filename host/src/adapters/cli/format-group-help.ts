import type { CliCommand } from './cli-command.js';
import { commandDescription } from './command-description.js';
import type { Style } from './style.js';

/** `svc <group> --help`: each command of the group in one line. */
export function formatGroupHelp(group: string, commands: readonly CliCommand[], style: Style): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = [
    `${style.bold(`svc ${group}`)} <command> [options]`,
    '',
    style.bold('commands:'),
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${commandDescription(command)}`),
    '',
    `Run \`svc ${group} <command> --help\` for a command's options and an example.`,
  ];
  return `${lines.join('\n')}\n`;
}
