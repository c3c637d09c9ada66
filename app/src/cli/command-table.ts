import type { CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import type { PluginCommandModule } from '@svc-org/host/host-plugin';
import { COMMAND_NAMES, COMMAND_DECLARATIONS } from './command-names.js';

/**
 * The `svc` commands by module: each entry loads its module; the names each module declares (`group
 * name`, or the group alone for a single-command group) come from `command-names.ts`, which
 * the build writes from the modules themselves (host/test/cli/command-names.test.ts fails on
 * drift), in `svc --help` order: the host's modules below, each plugin's placed after the module it
 * names (its `cli`, host-plugin.ts). `svc <group> <name>` loads only the module that declares it, and
 * through it only the operations that command uses: a person running `svc task list` waits for
 * neither the gateways nor the extension catalog to be evaluated, and a plugin's module is reached
 * through the plugins (`host-plugins.ts`) only when one of its commands runs. Names, groups and "did
 * you mean" come from the names without loading anything; `svc --help` and a group's help load what
 * they list. A command derived from a core operation's `cli` part (`svc task list`) loads only the
 * file that declares that operation, not its module's other commands and their operations.
 */
export interface CommandModule {
  /** The file that declares the commands (its name without `.ts`), the key of its names. */
  module: string;
  /** `group name` of each command, in the module's order. */
  commands: readonly string[];
  load(): Promise<readonly CliCommand[]>;
}

/** A module of commands before its names are known: the host's own, or one a plugin declares. */
export type CommandLoader = Pick<CommandModule, 'module' | 'load'>;

/** The host's own modules, in the order `svc --help` lists them. */
export const HOST_COMMAND_MODULES: readonly CommandLoader[] = [
  { module: 'host-commands', load: async () => (await import('./host-commands.js')).HOST_COMMANDS },
  // Publishing: a provider author's own catalog.
  { module: 'catalog-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/catalog-commands')).CATALOG_COMMANDS },
  { module: 'connection-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/connection-commands')).CONNECTION_COMMANDS },
  { module: 'workspace-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/workspace-commands')).WORKSPACE_COMMANDS },
  { module: 'project-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/project-commands')).PROJECT_COMMANDS },
  { module: 'label-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/label-commands')).LABEL_COMMANDS },
  { module: 'task-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/task-commands')).TASK_COMMANDS },
  { module: 'task-worktree-commands', load: async () => (await import('./task-worktree-commands.js')).TASK_WORKTREE_COMMANDS },
  { module: 'task-revert-commands', load: async () => (await import('./task-revert-commands.js')).TASK_REVERT_COMMANDS },
  { module: 'execution-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/execution-commands')).EXECUTION_COMMANDS },
  // Knowledge, the day's summary, product groups and task history: flags from their declarations.
  { module: 'knowledge-commands', load: async () => (await import('@svc-org/host/adapters/cli/commands/knowledge-commands')).KNOWLEDGE_COMMANDS },
];

/** The host's modules with each plugin module placed after the one it names, in `svc --help` order. */
export function placeCommandModules(host: readonly CommandLoader[], plugins: readonly PluginCommandModule<CliCommand>[]): CommandLoader[] {
  const placed = [...host];
  for (const entry of plugins) {
    if (placed.some((candidate) => candidate.module === entry.module)) throw new Error(`two command modules are named ${entry.module}`);
    const after = placed.findIndex((candidate) => candidate.module === entry.after);
    if (after === -1) throw new Error(`command module ${entry.module} follows ${entry.after}, which no module before it is named`);
    // After the module it names and the plugin modules already placed after that one.
    let at = after + 1;
    while (at < placed.length && plugins.some((other) => other.module === placed[at]!.module && other.after === entry.after)) at += 1;
    placed.splice(at, 0, { module: entry.module, load: entry.load });
  }
  return placed;
}

const HOST_LOADERS = new Map(HOST_COMMAND_MODULES.map((entry) => [entry.module, entry.load]));

/** A plugin's module, through the plugins this host wires (evaluated only now). */
async function loadPluginModule(module: string): Promise<readonly CliCommand[]> {
  const { HOST_PLUGINS } = await import('../host-plugins.js');
  const entry = HOST_PLUGINS.flatMap((plugin) => plugin.cli ?? []).find((candidate) => candidate.module === module);
  if (!entry) throw new Error(`no plugin declares the command module ${module} (run \`pnpm build\`, which writes the names)`);
  return entry.load();
}

/** In the order `svc --help` lists them (the order of ALL_COMMANDS). */
export const COMMAND_MODULES: readonly CommandModule[] = Object.entries(COMMAND_NAMES).map(([module, commands]) => ({
  module,
  commands,
  load: HOST_LOADERS.get(module) ?? (() => loadPluginModule(module)),
}));

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
  const declared = COMMAND_DECLARATIONS[key];
  if (declared) {
    const [{ operationCommand }, operation] = await Promise.all([import('@svc-org/host/adapters/cli/operation-command'), declared()]);
    return operationCommand(operation, operation.cli!);
  }
  const module = COMMAND_MODULES.find((candidate) => candidate.commands.includes(key));
  return (await module?.load())?.find((command) => command.group === group && command.name === name);
}

/** Every command (`svc --help`), in help order. */
export async function loadAllCommands(): Promise<CliCommand[]> {
  return (await Promise.all(COMMAND_MODULES.map((module) => module.load()))).flat();
}
