import { SvcError } from '@svc-org/ai-sdk';
// Type-only: start_task_execution imports this, and the operations index imports that operation.
import type { OperationContext } from '../operations/operation-context.js';
import { TaskDefaultStore } from './task-default-store.js';

/** The connection and model a task starts with: what the caller named, else its project's defaults. */
export function withTaskDefaults<T extends { connection?: string; model?: string }>(
  request: T,
  ctx: OperationContext,
  taskId: number,
): T & { connection: string } {
  const defaults = new TaskDefaultStore(ctx.services.db).get(ctx.services.domain.tasks.get(taskId).projectId);
  const connection = request.connection ?? defaults.connection ?? undefined;
  if (!connection) {
    throw new SvcError({
      code: 'connection_required',
      message: `name the connection that runs task ${taskId}'s CLI, or set its project's default with set_task_defaults`,
      details: { taskId },
    });
  }
  const model = request.model ?? defaults.model ?? undefined;
  return { ...request, connection, ...(model ? { model } : {}) };
}
