import type { AnyOperation } from '../../operation-framework/index.js';
import type { CliCommand } from './cli-command.js';
import { operationCommand } from './operation-command.js';

const isDeclared = (value: unknown): value is AnyOperation & { cli: NonNullable<AnyOperation['cli']> } =>
  typeof value === 'object' && value !== null && typeof (value as AnyOperation).handler === 'function' && (value as AnyOperation).cli !== undefined;

const fullName = (command: CliCommand) => `${command.group} ${command.name}`.trim();

/**
 * A command module's commands: the hand-written ones and every operation the given modules (a group's
 * `index.ts`, read as a namespace) export with a `cli` part. `helpOrder` names the commands (`list`,
 * or `group name` in a module of several groups) in the order `svc <group> --help` lists them; one it
 * leaves out follows, hand-written first, then by its operation's name. A name that is no command, or a
 * hand-written command of the name an operation declares, is a mistake caught at load.
 */
export function declaredCommands(modules: readonly object[], handWritten: readonly CliCommand[], helpOrder: readonly string[] = []): CliCommand[] {
  const declared = [...new Set(modules.flatMap((module) => Object.values(module).filter(isDeclared)))]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((operation) => operationCommand(operation, operation.cli));
  const commands = [...handWritten, ...declared];
  // A command written by hand beside the one its operation declares would shadow it: the declaration alone says it.
  const twice = declared.filter((command) => handWritten.some((other) => fullName(other) === fullName(command))).map(fullName);
  if (twice.length > 0) throw new Error(`written by hand and declared by its operation: ${twice.join(', ')}`);
  const stray = helpOrder.filter((name) => !commands.some((command) => command.name === name || fullName(command) === name));
  if (stray.length > 0) throw new Error(`help order names no command: ${stray.join(', ')}`);
  const rank = (command: CliCommand) => [command.name, fullName(command)].map((name) => helpOrder.indexOf(name)).find((index) => index >= 0) ?? helpOrder.length;
  return commands
    .map((command, index) => ({ command, index }))
    .sort((a, b) => rank(a.command) - rank(b.command) || a.index - b.index)
    .map(({ command }) => command);
}
