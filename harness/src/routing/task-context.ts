import { approvalStores } from '../approvals/approval-stores.js';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { RoutingStores } from './routing-stores.js';

/**
 * What a gateway's own agent may do for a reply it delegates: read, and nothing that changes svc. Each
 * such read says so in its declaration (`mcp: { delegatedRead: true }`); these are the ones this
 * process serves.
 */
export function delegatedReadTools(ctx: OperationContext): string[] {
  return (ctx.served?.list() ?? []).filter((operation) => operation.mcp && operation.mcp.delegatedRead).map((operation) => operation.name);
}

/** The message a reply answers, when it is one svc sent (its delivery mapping). */
export interface RepliedTo {
  messageId: number;
  kind: string;
  /** The question's state when that message was an ask: OPEN, ANSWERED or SUPERSEDED. */
  askStatus: string | null;
  answeredAt: string | null;
  /** When that message relayed a CLI's permission request: the request and its state (a reply to it answers it). */
  approval: { approvalId: number; status: string } | null;
}

/**
 * The context object for delegating an external operation: the gateway hands it to its own
 * agent with the request, and svc's state stays as it is.
 */
export interface SvcContext {
  task: { id: number; title: string; status: string };
  project: { id: number; name: string };
  workbenchTaskId: number | null;
  thread: { platform: string; chatId: string; threadId: string | null } | null;
  allowedTools: string[];
  mayChangeServiceState: false;
}

export interface TaskContext {
  subjectTaskId: number;
  producerTaskId: number | null;
  projectId: number;
  workbenchTaskId: number | null;
  taskStatus: string;
  title: string;
  openAsk: { askId: number; question: string } | null;
  recentExecutions: { id: number; status: string; endedAt: string | null }[];
  latestResult: string | null;
  repliedTo: RepliedTo | null;
  svcContext: SvcContext;
}

const TOKEN = /\s*\[\[svc:task=\d+\]\]\s*/g;

/**
 * What a reply about a task needs to be answered, read only: the subject task, the task that
 * produced the message replied to (its parent, when the subject is a child), the project's
 * Workbench, the OPEN ask, the last executions, the latest result sent for it, and the message
 * replied to (so a late answer to a question already answered is told so).
 */
export function readTaskContext(
  ctx: OperationContext,
  stores: RoutingStores,
  taskId: number,
  reply: { platform: string; chatId: string; threadId?: string | undefined; replyToMessageId?: string | undefined } | null = null,
): TaskContext {
  const { domain, db } = ctx.services;
  const task = domain.tasks.get(taskId);
  const project = domain.projects.get(task.projectId);
  const ask = stores.messages.openAskOf(taskId);
  const question = ask ? (db.prepare('SELECT body FROM harness_messages WHERE id = ?').get(ask.messageId) as { body: string } | undefined)?.body ?? '' : '';
  const executions = domain.executions.list({ taskId }).slice(-5);
  const result = db.prepare("SELECT body FROM harness_messages WHERE task_id = ? AND kind = 'FINAL_RESULT' ORDER BY id DESC LIMIT 1").get(taskId) as
    | { body: string }
    | undefined;
  const workbenchTaskId = stores.workbench.workbenchOf(task.projectId) ?? null;
  return {
    subjectTaskId: task.id,
    producerTaskId: task.parentTaskId,
    projectId: task.projectId,
    workbenchTaskId,
    taskStatus: task.status,
    title: task.title,
    openAsk: ask ? { askId: ask.id, question } : null,
    recentExecutions: executions.map((e) => ({ id: e.id, status: e.status, endedAt: e.endedAt ?? null })),
    latestResult: result ? result.body.replace(TOKEN, ' ').trim() : null,
    repliedTo: reply?.replyToMessageId ? repliedTo(ctx, { ...reply, replyToMessageId: reply.replyToMessageId }) : null,
    svcContext: {
      task: { id: task.id, title: task.title, status: task.status },
      project: { id: project.id, name: project.name },
      workbenchTaskId,
      thread: reply ? { platform: reply.platform, chatId: reply.chatId, threadId: reply.threadId ?? null } : null,
      allowedTools: delegatedReadTools(ctx),
      mayChangeServiceState: false,
    },
  };
}

function repliedTo(ctx: OperationContext, reply: { platform: string; chatId: string; replyToMessageId: string }): RepliedTo | null {
  const row = ctx.services.db
    .prepare(
      `SELECT m.id, m.kind, a.status AS ask_status, a.replied_at FROM harness_deliveries d
       JOIN harness_messages m ON m.id = d.message_id LEFT JOIN harness_asks a ON a.message_id = m.id
       WHERE d.platform = ? AND d.chat_id = ? AND d.platform_message_id = ? ORDER BY d.message_id DESC LIMIT 1`,
    )
    .get(reply.platform, reply.chatId, reply.replyToMessageId) as { id: number; kind: string; ask_status: string | null; replied_at: string | null } | undefined;
  if (!row) return null;
  const approval = approvalStores(ctx.services).approvals.byMessage(row.id);
  return { messageId: row.id, kind: row.kind, askStatus: row.ask_status, answeredAt: row.replied_at, approval: approval ? { approvalId: approval.id, status: approval.status } : null };
}
