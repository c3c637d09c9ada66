import type { CliCommand } from './cli-command.js';
import { commandDescription } from './command-description.js';
import { commandUsage } from './command-usage.js';
import type { Style } from './style.js';

/** `svc <group> <command> --help`: what it does, how to type it, its options and an example. */
export function formatCommandHelp(command: CliCommand, style: Style): string {
  const rows: [string, string][] = Object.entries(command.options).map(([name, option]) => [
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? '<value>'}` : ''}${option.multiple ? ' ...' : ''}`,
    option.description,
  ]);
  if (command.json) rows.push(['--json', 'print the result as JSON']);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = [
    `${style.bold(['svc', command.group, command.name].filter(Boolean).join(' '))} — ${commandDescription(command)}`,
    '',
    `${style.bold('usage:')} ${commandUsage(command)}`,
    '',
    style.bold('options:'),
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ];
  if (command.operation?.runsIn === 'service') lines.push('', style.dim('needs the running service (`svc serve`)'));
  lines.push('', style.bold(command.examples.length > 1 ? 'examples:' : 'example:'), ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}
