import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { CATALOG_COMMANDS } from '../../adapters/cli/commands/catalog-commands.js';
import { CONNECTION_COMMANDS } from '../../adapters/cli/commands/connection-commands.js';
import { EXECUTION_COMMANDS } from '../../adapters/cli/commands/execution-commands.js';
import { KNOWLEDGE_COMMANDS } from '../../adapters/cli/commands/knowledge-commands.js';
import { LABEL_COMMANDS } from '../../adapters/cli/commands/label-commands.js';
import { PROJECT_COMMANDS } from '../../adapters/cli/commands/project-commands.js';
import { TASK_COMMANDS } from '../../adapters/cli/commands/task-commands.js';
import { WORKSPACE_COMMANDS } from '../../adapters/cli/commands/workspace-commands.js';
import { APPROVAL_COMMANDS } from './approval-commands.js';
import { GATEWAY_COMMANDS } from './gateway-commands.js';
import { HARNESS_COMMANDS } from './harness-commands.js';
import { STATUS_COMMANDS } from './status-command.js';
import { HOST_COMMANDS } from './host-commands.js';
import { TASK_WORKTREE_COMMANDS } from './task-worktree-commands.js';

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
  ...APPROVAL_COMMANDS,
  ...EXECUTION_COMMANDS,
  // Knowledge, the day's summary, product groups and task history: flags from their declarations.
  ...KNOWLEDGE_COMMANDS,
  // The harness: the notification center, gateways and channels.
  ...STATUS_COMMANDS,
  ...HARNESS_COMMANDS,
  ...GATEWAY_COMMANDS,
];
