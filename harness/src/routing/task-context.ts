import type { OperationContext } from '../../../host/src/operations/index.js';
import type { RoutingStores } from './routing-stores.js';

export interface TaskContext {
  subjectTaskId: number;
  producerTaskId: number | null;
  projectId: number;
  workbenchTaskId: number | null;
  taskStatus: string;
  title: string;
  openAsk: { askId: number; question: string } | null;
  recentExecutions: { id: number; status: string; endedAt: string | null }[];
}

/**
 * What a reply about a task needs to be answered, read only: the subject task, the task that
 * produced the message replied to (its parent, when the subject is a child), the project's
 * Workbench, the OPEN ask and the last executions.
 */
export function readTaskContext(ctx: OperationContext, stores: RoutingStores, taskId: number): TaskContext {
  const { domain, db } = ctx.services;
  const task = domain.tasks.get(taskId);
  const ask = stores.messages.openAskOf(taskId);
  const question = ask ? (db.prepare('SELECT body FROM harness_messages WHERE id = ?').get(ask.messageId) as { body: string } | undefined)?.body ?? '' : '';
  const executions = domain.executions.list({ taskId }).slice(-5);
  return {
    subjectTaskId: task.id,
    producerTaskId: task.parentTaskId,
    projectId: task.projectId,
    workbenchTaskId: stores.workbench.workbenchOf(task.projectId) ?? null,
    taskStatus: task.status,
    title: task.title,
    openAsk: ask ? { askId: ask.id, question } : null,
    recentExecutions: executions.map((e) => ({ id: e.id, status: e.status, endedAt: e.endedAt ?? null })),
  };
}
