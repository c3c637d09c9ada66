// What the service answers, as the operations declare it: every record type the pages read comes
// from an operation's output schema (src/operations.ts imports the declarations for their types only).
import type { z } from 'zod';
import type { AnswerOf as Answer, RoutedOperation } from './api.js';
import type {
  checkGatewayHealth,
  discardTaskWorktree,
  getBoard,
  getExtensionPermissions,
  getExtensionStats,
  getTaskDiff,
  listApprovals,
  listCatalog,
  listChannels,
  listConnections,
  listExecutions,
  listExtensions,
  listGateways,
  listHarnessMessages,
  listOutdatedExtensions,
  listProjects,
  listTasks,
  listWorkspaces,
  revertTaskChanges,
  sendReviewComments,
} from './operations.js';

/** One item of a list answer (`{ items: [...] }`). */
type Item<O extends RoutedOperation> = Answer<O> extends { items: (infer T)[] } ? T : never;

export type Workspace = Item<typeof listWorkspaces>;
export type Project = Item<typeof listProjects>;
export type Task = Item<typeof listTasks>;
export type Execution = Item<typeof listExecutions>;

export type Connection = Item<typeof listConnections>;

export type Extension = Item<typeof listExtensions>;
export type CatalogListing = Answer<typeof listCatalog>;
export type CatalogExtension = CatalogListing['extensions'][number];
export type CatalogVersion = CatalogExtension['versions'][number];
export type Outdated = Answer<typeof listOutdatedExtensions>['extensions'][number];
export type PermissionPrompt = Answer<typeof getExtensionPermissions>;
export type ProviderStats = Item<typeof getExtensionStats>;

export type TaskDiff = Answer<typeof getTaskDiff>;
export type DiscardOutcome = Answer<typeof discardTaskWorktree>;
export type RevertOutcome = Answer<typeof revertTaskChanges>;
/** One comment of the Review view, as send_review_comments takes it. */
export type ReviewComment = z.input<typeof sendReviewComments.input>['comments'][number];

export type HarnessMessage = Item<typeof listHarnessMessages>;
export type Board = Answer<typeof getBoard>;
export type BoardCard = Board['items'][number];
export type Attention = BoardCard['attention'];
export type Approval = Item<typeof listApprovals>;
export type Gateway = Item<typeof listGateways>;
export type Channel = Item<typeof listChannels>;
export type GatewayHealth = Answer<typeof checkGatewayHealth>;
