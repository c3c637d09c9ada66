import type { CliCommand } from '../cli-command.js';
import { CATALOG_COMMANDS } from './catalog-commands.js';
import { CONNECTION_COMMANDS } from './connection-commands.js';
import { EXECUTION_COMMANDS } from './execution-commands.js';
import { GATEWAY_COMMANDS } from './gateway-commands.js';
import { HARNESS_COMMANDS } from './harness-commands.js';
import { HOST_COMMANDS } from './host-commands.js';
import { KNOWLEDGE_COMMANDS } from './knowledge-commands.js';
import { LABEL_COMMANDS } from './label-commands.js';
import { PROJECT_COMMANDS } from './project-commands.js';
import { TASK_COMMANDS } from './task-commands.js';
import { TASK_WORKTREE_COMMANDS } from './task-worktree-commands.js';
import { WORKSPACE_COMMANDS } from './workspace-commands.js';

/** Every command of the `svc` executable, in the order `svc --help` lists them. */
export const ALL_COMMANDS: readonly CliCommand[] = [
  ...HOST_COMMANDS,
  // Publishing: a provider author's own catalog.
  ...CATALOG_COMMANDS,
  ...CONNECTION_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...PROJECT_COMMANDS,
  ...LABEL_COMMANDS,
  ...TASK_COMMANDS,
  ...TASK_WORKTREE_COMMANDS,
  ...EXECUTION_COMMANDS,
  // Knowledge, the day's summary, product groups and task history: flags from their declarations.
  ...KNOWLEDGE_COMMANDS,
  // The harness: the notification center, gateways and channels.
  ...HARNESS_COMMANDS,
  ...GATEWAY_COMMANDS,
];
