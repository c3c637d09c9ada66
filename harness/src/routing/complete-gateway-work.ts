import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { transaction } from '@svc-org/host/platform/db';
import { assertTaskTransition } from '@svc-org/host/features/domain';
import { defineOperation } from '@svc-org/host/operation-framework';
import { MessageTextField, TaskIdField } from '../operations/harness-schemas.js';
import { withTaskToken } from '../messaging/index.js';
import { queuePlatformMessage } from './queue-platform-message.js';
import { assertWorkbenchCaller } from './assert-workbench-caller.js';
import { routingStores } from './routing-stores.js';

export const completeGatewayWork = defineOperation({
  name: 'complete_gateway_work',
  group: 'gateway',
  // The Workbench (a task terminal) calls it; over MCP only its own terminal may, never the gateway's agent.
  mcp: { alsoIn: ['task'], notIn: ['gateway'] },
  description:
    'Workbench: the reviewed work is done. Moves the task to DONE and queues its FINAL_RESULT for the chat the work request came from, in one ' +
    'transaction; the platform send follows through the outbox. Do not call move_task to DONE first. A second call returns the first result.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: TaskIdField, result: MessageTextField }).strict(),
  output: z.object({ taskId: z.number(), status: z.literal('DONE'), messageId: z.number(), completed: z.enum(['queued', 'already_completed']) }),
  http: { method: 'PUT', path: '/api/internal/harness/gateway/work' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const { db, domain } = ctx.services;
    const outcome = transaction(db, () => {
      const task = domain.tasks.get(input.taskId);
      assertWorkbenchCaller(ctx, stores, { projectId: task.projectId, parentTaskId: task.parentTaskId }, 'complete_gateway_work');
      const previous = db.prepare("SELECT id FROM harness_messages WHERE task_id = ? AND kind = 'FINAL_RESULT' ORDER BY id LIMIT 1").get(task.id) as { id: number } | undefined;
      if (previous && task.status === 'DONE') return { messageId: previous.id, completed: 'already_completed' as const };
      assertTaskTransition(task.id, task.status, 'DONE');
      const live = db.prepare("SELECT id FROM executions WHERE task_id = ? AND status IN ('RUNNING', 'PAUSED')").get(task.id) as { id: number } | undefined;
      if (live) {
        throw new SvcError({
          code: 'task_has_live_execution',
          message: `task ${task.id} has a live execution (${live.id}); close its terminal before completing the work`,
          details: { id: task.id, executionId: live.id, fix: 'close_task_terminal, then complete_gateway_work' },
        });
      }
      const project = domain.projects.get(task.projectId);
      const inbound = stores.inbound.forTask(task.id);
      const channel = inbound?.channelId != null ? stores.channels.get(inbound.channelId) : stores.channels.activeFor({ workspaceId: project.workspaceId, projectId: project.id })[0];
      if (!channel) {
        throw new SvcError({ code: 'no_active_channel', message: `no active channel serves task ${task.id}`, details: { taskId: task.id, fix: 'svc channel add …' } });
      }
      db.prepare("UPDATE tasks SET status = 'DONE', updated_at = ? WHERE id = ?").run(new Date().toISOString(), task.id);
      const { messageId } = queuePlatformMessage(db, {
        kind: 'FINAL_RESULT',
        taskId: task.id,
        projectId: project.id,
        workspaceId: project.workspaceId,
        body: withTaskToken(input.result, task.id),
        channelId: channel.id,
        gatewayId: channel.gatewayId,
        to: inbound?.chatId ?? channel.home.to,
        threadId: inbound ? inbound.threadId : channel.home.threadId,
        replyToId: inbound?.platformMessageId ?? null,
      });
      return { messageId, completed: 'queued' as const };
    });
    if (outcome.completed === 'queued') stores.events.emit('enqueued');
    return { taskId: input.taskId, status: 'DONE' as const, ...outcome };
  },
});
