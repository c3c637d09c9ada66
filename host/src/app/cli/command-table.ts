import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { COMMAND_NAMES } from './command-names.js';

/**
 * The `svc` commands by module: each entry loads its module; the names each module declares (`group
 * name`, or the group alone for a single-command group) come from `command-names.ts`, which
 * `pnpm cli:index` writes from the modules themselves (host/test/cli/command-names.test.ts fails on
 * drift). `svc <group> <name>` loads only the module that declares it, and through it only the
 * operations that command uses: a person running `svc task list` waits for neither the gateways nor
 * the extension catalog to be evaluated. Names, groups and "did you mean" come from the names without
 * loading anything; `svc --help` and a group's help load what they list.
 */
export interface CommandModule {
  /** The file that declares the commands (its name without `.ts`), the key of its names. */
  module: keyof typeof COMMAND_NAMES;
  /** `group name` of each command, in the module's order. */
  commands: readonly string[];
  load(): Promise<readonly CliCommand[]>;
}

/** In the order `svc --help` lists them (the order of ALL_COMMANDS). */
export const COMMAND_MODULES: readonly CommandModule[] = (
  [
    { module: 'host-commands', load: async () => (await import('./host-commands.js')).HOST_COMMANDS },
    // Publishing: a provider author's own catalog.
    { module: 'catalog-commands', load: async () => (await import('../../adapters/cli/commands/catalog-commands.js')).CATALOG_COMMANDS },
    { module: 'connection-commands', load: async () => (await import('../../adapters/cli/commands/connection-commands.js')).CONNECTION_COMMANDS },
    { module: 'workspace-commands', load: async () => (await import('../../adapters/cli/commands/workspace-commands.js')).WORKSPACE_COMMANDS },
    { module: 'project-commands', load: async () => (await import('../../adapters/cli/commands/project-commands.js')).PROJECT_COMMANDS },
    { module: 'label-commands', load: async () => (await import('../../adapters/cli/commands/label-commands.js')).LABEL_COMMANDS },
    { module: 'task-commands', load: async () => (await import('../../adapters/cli/commands/task-commands.js')).TASK_COMMANDS },
    { module: 'task-worktree-commands', load: async () => (await import('./task-worktree-commands.js')).TASK_WORKTREE_COMMANDS },
    { module: 'approval-commands', load: async () => (await import('./approval-commands.js')).APPROVAL_COMMANDS },
    { module: 'execution-commands', load: async () => (await import('../../adapters/cli/commands/execution-commands.js')).EXECUTION_COMMANDS },
    // Knowledge, the day's summary, product groups and task history: flags from their declarations.
    { module: 'knowledge-commands', load: async () => (await import('../../adapters/cli/commands/knowledge-commands.js')).KNOWLEDGE_COMMANDS },
    // The board in the terminal.
    { module: 'status-command', load: async () => (await import('./status-command.js')).STATUS_COMMANDS },
    // The harness: the notification center, gateways and channels.
    { module: 'harness-commands', load: async () => (await import('./harness-commands.js')).HARNESS_COMMANDS },
    { module: 'gateway-commands', load: async () => (await import('./gateway-commands.js')).GATEWAY_COMMANDS },
  ] as const
).map((entry) => ({ ...entry, commands: COMMAND_NAMES[entry.module] }));

const groupOf = (entry: string) => entry.split(' ')[0]!;
const nameOf = (entry: string) => entry.slice(groupOf(entry).length + 1);

/** Every group, in `svc --help` order. */
export function commandGroups(): string[] {
  return [...new Set(COMMAND_MODULES.flatMap((module) => module.commands.map(groupOf)))];
}

/** The names of a group's commands ('' for a single-command group), in help order. */
export function commandNames(group: string): string[] {
  return COMMAND_MODULES.flatMap((module) => module.commands.filter((entry) => groupOf(entry) === group).map(nameOf));
}

/** The commands of a group, loading only the modules that declare one of them. */
export async function loadGroupCommands(group: string): Promise<CliCommand[]> {
  const modules = COMMAND_MODULES.filter((module) => module.commands.some((entry) => groupOf(entry) === group));
  return (await Promise.all(modules.map((module) => module.load()))).flat().filter((command) => command.group === group);
}

/** One command, loading only the module that declares it; undefined when no module names it. */
export async function loadCommand(group: string, name: string): Promise<CliCommand | undefined> {
  const key = name === '' ? group : `${group} ${name}`;
  const module = COMMAND_MODULES.find((candidate) => candidate.commands.includes(key));
  return (await module?.load())?.find((command) => command.group === group && command.name === name);
}

/** Every command (`svc --help`), in help order. */
export async function loadAllCommands(): Promise<CliCommand[]> {
  return (await Promise.all(COMMAND_MODULES.map((module) => module.load()))).flat();
}
