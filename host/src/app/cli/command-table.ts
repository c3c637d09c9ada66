import type { CliCommand } from '../../adapters/cli/cli-command.js';

/**
 * The `svc` commands by module: each entry names the commands its module declares (`group name`, or
 * the group alone for a single-command group) and loads the module. `svc <group> <name>` loads only
 * the module that declares it, and through it only the operations that command uses: a person
 * running `svc task list` waits for neither the gateways nor the extension catalog to be evaluated.
 * Names, groups and "did you mean" come from here without loading anything; `svc --help` and a
 * group's help load what they list. A test keeps the names equal to what the modules declare.
 */
export interface CommandModule {
  /** `group name` of each command, in the module's order. */
  commands: readonly string[];
  load(): Promise<readonly CliCommand[]>;
}

/** In the order `svc --help` lists them (the order of ALL_COMMANDS). */
export const COMMAND_MODULES: readonly CommandModule[] = [
  {
    commands: [
      'query', 'session', 'models', 'serve', 'doctor', 'open', 'mcp', 'completion',
      'ext list', 'ext dev', 'ext show', 'ext enable', 'ext disable', 'ext doctor', 'ext stats', 'ext new', 'ext pack', 'ext catalog',
      'ext install', 'ext outdated', 'ext update', 'ext rollback', 'ext uninstall',
      'config get', 'config set', 'config unset', 'config list',
      'integration mcp', 'integration hooks', 'integration skills',
    ],
    load: async () => (await import('./host-commands.js')).HOST_COMMANDS,
  },
  // Publishing: a provider author's own catalog.
  { commands: ['catalog build', 'catalog keygen', 'catalog serve'], load: async () => (await import('../../adapters/cli/commands/catalog-commands.js')).CATALOG_COMMANDS },
  {
    commands: ['connection add', 'connection list', 'connection show', 'connection set', 'connection remove'],
    load: async () => (await import('../../adapters/cli/commands/connection-commands.js')).CONNECTION_COMMANDS,
  },
  {
    commands: ['workspace create', 'workspace list', 'workspace show', 'workspace update', 'workspace remove'],
    load: async () => (await import('../../adapters/cli/commands/workspace-commands.js')).WORKSPACE_COMMANDS,
  },
  {
    commands: ['project create', 'project list', 'project show', 'project update', 'project remove', 'project defaults'],
    load: async () => (await import('../../adapters/cli/commands/project-commands.js')).PROJECT_COMMANDS,
  },
  {
    commands: ['label create', 'label list', 'label show', 'label update', 'label remove'],
    load: async () => (await import('../../adapters/cli/commands/label-commands.js')).LABEL_COMMANDS,
  },
  {
    commands: [
      'task create', 'task list', 'task show', 'task update', 'task move', 'task labels', 'task remove',
      'task start', 'task resume', 'task attach', 'task output', 'task status', 'task terminals', 'task stop',
    ],
    load: async () => (await import('../../adapters/cli/commands/task-commands.js')).TASK_COMMANDS,
  },
  {
    commands: ['task diff', 'task merge', 'task discard', 'task restore', 'task branches', 'task gc', 'task worktree', 'task comment', 'task revert', 'project isolation', 'project overlaps'],
    load: async () => (await import('./task-worktree-commands.js')).TASK_WORKTREE_COMMANDS,
  },
  {
    commands: ['task approvals', 'task approve', 'task approval-policy'],
    load: async () => (await import('./approval-commands.js')).APPROVAL_COMMANDS,
  },
  { commands: ['execution list', 'execution show'], load: async () => (await import('../../adapters/cli/commands/execution-commands.js')).EXECUTION_COMMANDS },
  // Knowledge, the day's summary, product groups and task history: flags from their declarations.
  {
    commands: [
      'search', 'knowledge ask', 'knowledge identify', 'fact list', 'fact set', 'fact delete',
      'note list', 'note show', 'note create', 'note update', 'note delete',
      'asset list', 'asset show', 'asset add', 'asset update', 'asset remove', 'daily summary', 'daily todo',
      'product-group list', 'product-group show', 'product-group create', 'product-group update', 'product-group delete',
      'task versions', 'task restore-version',
    ],
    load: async () => (await import('../../adapters/cli/commands/knowledge-commands.js')).KNOWLEDGE_COMMANDS,
  },
  // The board in the terminal.
  { commands: ['status'], load: async () => (await import('./status-command.js')).STATUS_COMMANDS },
  // The harness: the notification center, gateways and channels.
  {
    commands: ['harness list', 'harness show', 'harness reply', 'harness resend', 'harness drain'],
    load: async () => (await import('./harness-commands.js')).HARNESS_COMMANDS,
  },
  {
    commands: [
      'gateway add', 'gateway list', 'gateway show', 'gateway remove', 'gateway health', 'gateway credential',
      'channel add', 'channel list', 'channel enable', 'channel disable', 'channel remove',
    ],
    load: async () => (await import('./gateway-commands.js')).GATEWAY_COMMANDS,
  },
];

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
