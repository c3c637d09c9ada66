// The operations the pages call, as their declarations type them (for `request` in api.ts and the
// record types in api-types.ts). Types only: the bundler erases these, so none of the host's or the
// harness's code reaches the browser (test/package-directions refuses a value import from them).
export type { createConnection } from '@svc-org/host/operations/connection/create-connection';
export type { deleteConnection } from '@svc-org/host/operations/connection/delete-connection';
export type { listConnections } from '@svc-org/host/operations/connection/list-connections';
export type { updateConnection } from '@svc-org/host/operations/connection/update-connection';
export type { listExecutions } from '@svc-org/host/operations/execution/list-executions';
export type { installExtension, listCatalog, listOutdatedExtensions, rollbackExtension, uninstallExtension, updateExtension } from '@svc-org/host/operations/extension/catalog-operations';
export type { disableExtension } from '@svc-org/host/operations/extension/disable-extension';
export type { enableExtension } from '@svc-org/host/operations/extension/enable-extension';
export type { getExtensionStats } from '@svc-org/host/operations/extension/extension-stats';
export type { getExtensionPermissions } from '@svc-org/host/operations/extension/get-extension-permissions';
export type { listExtensions } from '@svc-org/host/operations/extension/list-extensions';
export type { registerDevExtension } from '@svc-org/host/operations/extension/register-dev-extension';
export type { removeDevExtension } from '@svc-org/host/operations/extension/remove-dev-extension';
export type { createProject } from '@svc-org/host/operations/project/create-project';
export type { listProjects } from '@svc-org/host/operations/project/list-projects';
export type { createTask } from '@svc-org/host/operations/task/create-task';
export type { getTask } from '@svc-org/host/operations/task/get-task';
export type { listTasks } from '@svc-org/host/operations/task/list-tasks';
export type { updateTask } from '@svc-org/host/operations/task/update-task';
export type { closeTaskTerminal } from '@svc-org/host/operations/terminal/close-task-terminal';
export type { getTaskTerminalOutput } from '@svc-org/host/operations/terminal/get-task-terminal-output';
export type { getTaskTerminalStatus } from '@svc-org/host/operations/terminal/get-task-terminal-status';
export type { resizeTaskTerminal } from '@svc-org/host/operations/terminal/resize-task-terminal';
export type { resumeTaskTerminal } from '@svc-org/host/operations/terminal/resume-task-terminal';
export type { sendTaskTerminalInput } from '@svc-org/host/operations/terminal/send-task-terminal-input';
export type { startTaskExecution } from '@svc-org/host/operations/terminal/start-task-execution';
export type { submitTaskTerminalMessage } from '@svc-org/host/operations/terminal/submit-task-terminal-message';
export type { createWorkspace } from '@svc-org/host/operations/workspace/create-workspace';
export type { listWorkspaces } from '@svc-org/host/operations/workspace/list-workspaces';
export type { discardTaskWorktree } from '@svc-org/host/operations/worktree/discard-task-worktree';
export type { getTaskDiff } from '@svc-org/host/operations/worktree/get-task-diff';
export type { getTaskWorktree } from '@svc-org/host/operations/worktree/get-task-worktree';
export type { mergeTask } from '@svc-org/host/operations/worktree/merge-task';
export type { restoreTaskWorktree } from '@svc-org/host/operations/worktree/restore-task-worktree';
export type { revertTaskChanges } from '@svc-org/host/operations/worktree/revert-task-changes';
export type {
  answerApproval,
  checkGatewayHealth,
  createChannel,
  deleteChannel,
  deleteGateway,
  getBoard,
  listApprovals,
  listChannels,
  listGateways,
  listHarnessMessages,
  listMcpTokens,
  replyToAsk,
  resendHarnessMessage,
  revokeMcpToken,
  sendReviewComments,
  updateChannel,
} from '@svc-org/harness/web-types';
