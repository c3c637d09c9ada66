// What the service answers, as the operations declare it: every record type the pages read comes
// from an operation's output schema, imported for its type only. `import type` is erased by the
// bundler, so none of the host's or the harness's code reaches the browser (test/package-directions
// refuses a value import from those packages into web/).
import type { z } from 'zod';
import type { getTaskTerminalStatus } from '../../host/src/operations/terminal/get-task-terminal-status.js';
import type { listTaskTerminals } from '../../host/src/operations/terminal/list-task-terminals.js';
import type { listConnections } from '../../host/src/operations/connection/list-connections.js';
import type { listExecutions } from '../../host/src/operations/execution/list-executions.js';
import type { getExtensionStats } from '../../host/src/operations/extension/extension-stats.js';
import type { listCatalog, listOutdatedExtensions } from '../../host/src/operations/extension/catalog-operations.js';
import type { getExtensionPermissions } from '../../host/src/operations/extension/get-extension-permissions.js';
import type { listExtensions } from '../../host/src/operations/extension/list-extensions.js';
import type { listProjects } from '../../host/src/operations/project/list-projects.js';
import type { listTasks } from '../../host/src/operations/task/list-tasks.js';
import type { listWorkspaces } from '../../host/src/operations/workspace/list-workspaces.js';
import type { discardTaskWorktree } from '../../host/src/operations/worktree/discard-task-worktree.js';
import type { getTaskDiff } from '../../host/src/operations/worktree/get-task-diff.js';
import type { getTaskWorktree } from '../../host/src/operations/worktree/get-task-worktree.js';
import type { mergeTask } from '../../host/src/operations/worktree/merge-task.js';
import type { revertTaskChanges } from '../../host/src/operations/worktree/revert-task-changes.js';
import type { restoreTaskWorktree } from '../../host/src/operations/worktree/restore-task-worktree.js';
import type { checkGatewayHealth } from '../../harness/src/gateways/check-gateway-health.js';
import type { listChannels } from '../../harness/src/gateways/list-channels.js';
import type { listGateways } from '../../harness/src/gateways/list-gateways.js';
import type { listMcpTokens } from '../../harness/src/mcp/tokens/mcp-token-operations.js';
import type { listHarnessMessages } from '../../harness/src/messaging/list-harness-messages.js';
import type { replyToAsk } from '../../harness/src/messaging/reply-to-ask.js';
import type { getBoard } from '../../harness/src/board/get-board.js';
import type { sendReviewComments } from '../../harness/src/messaging/send-review-comments.js';
import type { listApprovals } from '../../harness/src/approvals/approval-operations.js';

/** The answer of an operation's HTTP route. */
export type Answer<O extends { output: z.ZodType }> = z.output<O['output']>;
/** One item of a list answer (`{ items: [...] }`). */
type Item<O extends { output: z.ZodType }> = Answer<O> extends { items: (infer T)[] } ? T : never;

export type Workspace = Item<typeof listWorkspaces>;
export type Project = Item<typeof listProjects>;
export type Task = Item<typeof listTasks>;
export type Execution = Item<typeof listExecutions>;
export type TerminalStatus = Answer<typeof getTaskTerminalStatus>;
export type TerminalSummary = Item<typeof listTaskTerminals>;

export type Connection = Item<typeof listConnections>;

export type Extension = Item<typeof listExtensions>;
export type CatalogListing = Answer<typeof listCatalog>;
export type CatalogExtension = CatalogListing['extensions'][number];
export type CatalogVersion = CatalogExtension['versions'][number];
export type OutdatedList = Answer<typeof listOutdatedExtensions>;
export type Outdated = OutdatedList['extensions'][number];
export type PermissionPrompt = Answer<typeof getExtensionPermissions>;
export type ProviderStats = Item<typeof getExtensionStats>;

export type WorktreeState = Answer<typeof getTaskWorktree>;
export type TaskDiff = Answer<typeof getTaskDiff>;
export type MergeOutcome = Answer<typeof mergeTask>;
export type DiscardOutcome = Answer<typeof discardTaskWorktree>;
export type RevertOutcome = Answer<typeof revertTaskChanges>;
export type RestoreOutcome = Answer<typeof restoreTaskWorktree>;
/** One comment of the Review view, as send_review_comments takes it. */
export type ReviewComment = z.input<typeof sendReviewComments.input>['comments'][number];

export type HarnessMessagePage = Answer<typeof listHarnessMessages>;
export type HarnessMessage = HarnessMessagePage['items'][number];
export type AskReply = Answer<typeof replyToAsk>;
export type Board = Answer<typeof getBoard>;
export type BoardCard = Board['items'][number];
export type Attention = BoardCard['attention'];
export type ApprovalPage = Answer<typeof listApprovals>;
export type Approval = ApprovalPage['items'][number];
export type Gateway = Item<typeof listGateways>;
export type Channel = Item<typeof listChannels>;
export type GatewayHealth = Answer<typeof checkGatewayHealth>;
export type McpToken = Item<typeof listMcpTokens>;
