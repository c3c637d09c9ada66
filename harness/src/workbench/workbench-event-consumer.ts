import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { transaction } from '@svc-org/host/platform/db';
import type { DomainEvent } from '@svc-org/host/platform/events';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { RoutingStores } from '../routing/routing-stores.js';

const StopHookArrivedSchema = z.object({ notificationId: z.number().int() });
const ExecutionEndedSchema = z.object({ executionId: z.number().int(), taskId: z.number().int(), status: z.string() });
const BaseConflictSchema = z.object({ taskId: z.number().int(), projectId: z.number().int(), baseBranch: z.string(), baseTip: z.string(), files: z.array(z.string()), summary: z.string() });

export type DomainEventOutcome = 'workbench_event' | 'no_event' | 'stale' | 'not_consumed';

/** A stop hook or execution end older than this when handled is no review any more (see `handle`). */
export const WORKBENCH_EVENT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The Workbench's side of the host's durable domain events (claimed by the event worker of
 * `svc serve`): a child's stop hook and the end of a child's execution become WorkbenchEvents for
 * its parent. Each is written in one transaction under a unique key, so an event handled again
 * after a kill (its claim was never marked done) adds nothing twice.
 *
 * - `stop_hook_arrived` → `CHILD_TURN_ENDED`; the first turn end of an execution takes the
 *   execution's review key.
 * - `execution_ended` FAILED → `EXECUTION_FAILED` (high priority), always.
 * - `execution_ended` COMPLETED (completed, or stopped by a person, or interrupted by the service) →
 *   `EXECUTION_COMPLETED` only when no stop-hook review of that execution holds its review key: both
 *   race on the unique `execution_review_key`. Its summary names the outcome.
 * - `task_conflicts_with_base` (the base moved, and an open task's branch now conflicts with it)
 *   → `TASK_CONFLICTS_WITH_BASE` (high priority) for the project's Workbench.
 * - `task_status_changed` has no consumer yet: `not_consumed`, and the worker marks it done.
 *
 * A stop hook or execution end first handled more than seven days after it happened (the service
 * was down that long, or the database predates this consumer) is `stale`: marked done without a
 * review, so a parent is not flooded with reports of work long finished.
 */
export class WorkbenchEventConsumer {
  constructor(
    private readonly services: OperationContext['services'],
    private readonly stores: RoutingStores,
  ) {}

  handle(event: DomainEvent, now: number = Date.now()): DomainEventOutcome {
    if (event.type !== 'task_status_changed' && now - event.createdAt > WORKBENCH_EVENT_MAX_AGE_MS) return 'stale';
    switch (event.type) {
      case 'stop_hook_arrived':
        return this.stopHookArrived(parse(StopHookArrivedSchema, event));
      case 'execution_ended':
        return this.executionEnded(parse(ExecutionEndedSchema, event));
      case 'task_conflicts_with_base':
        return this.baseConflict(parse(BaseConflictSchema, event), event.dedupKey);
      default:
        return 'not_consumed';
    }
  }

  private stopHookArrived({ notificationId }: z.output<typeof StopHookArrivedSchema>): DomainEventOutcome {
    const { db, domain } = this.services;
    const { workbench } = this.stores;
    return transaction(db, () => {
      const notification = domain.stopNotifications.find(notificationId);
      if (!notification) return 'no_event';
      domain.stopNotifications.markFannedOut(notification.id);
      const task = notification.taskId === null ? undefined : domain.tasks.find(notification.taskId);
      if (!task || task.parentTaskId === null) return 'no_event';
      const payload = asRecord(notification.payload);
      // The notification table already keeps one row per task and turn; the key only names it.
      const turn = turnIdOf(payload) ?? `n${notification.id}`;
      // The first turn end of an execution is its review; the execution's COMPLETED fallback then adds nothing.
      const reviewKey = notification.executionId !== null ? `review:${notification.executionId}` : null;
      const keyFree = reviewKey !== null && !workbench.hasReviewKey(reviewKey);
      const added = workbench.addEvent({
        parentTaskId: task.parentTaskId,
        kind: 'CHILD_TURN_ENDED',
        priority: 'normal',
        dedupKey: `stop:${task.id}:${turn}`,
        executionReviewKey: keyFree ? reviewKey : null,
        sourceTaskId: task.id,
        executionId: notification.executionId,
        payload: { taskId: task.id, title: task.title, receivedAt: notification.receivedAt, summary: lastMessageOf(payload), hook: payload },
      });
      return added === undefined ? 'no_event' : 'workbench_event';
    });
  }

  private baseConflict(conflict: z.output<typeof BaseConflictSchema>, dedupKey: string): DomainEventOutcome {
    const parentTaskId = this.stores.workbench.workbenchOf(conflict.projectId);
    if (parentTaskId === undefined || parentTaskId === conflict.taskId) return 'no_event';
    const added = this.stores.workbench.addEvent({
      parentTaskId,
      kind: 'TASK_CONFLICTS_WITH_BASE',
      priority: 'high',
      dedupKey,
      sourceTaskId: conflict.taskId,
      payload: { taskId: conflict.taskId, baseBranch: conflict.baseBranch, files: conflict.files, summary: `${conflict.summary}; ask it to rebase on ${conflict.baseBranch} (get_task_diff shows its changes)` },
    });
    return added === undefined ? 'no_event' : 'workbench_event';
  }

  private executionEnded(end: z.output<typeof ExecutionEndedSchema>): DomainEventOutcome {
    const { db, domain } = this.services;
    const { workbench } = this.stores;
    if (end.status !== 'COMPLETED' && end.status !== 'FAILED') return 'no_event';
    return transaction(db, () => {
      const task = domain.tasks.find(end.taskId);
      if (!task || task.parentTaskId === null) return 'no_event';
      const execution = executionOf(this.services, end.executionId);
      if (!execution) return 'no_event';
      const failed = end.status === 'FAILED';
      const added = workbench.addEvent({
        parentTaskId: task.parentTaskId,
        kind: failed ? 'EXECUTION_FAILED' : 'EXECUTION_COMPLETED',
        priority: failed ? 'high' : 'normal',
        dedupKey: `exec:${execution.id}`,
        // COMPLETED races a stop-hook review for this key; the database keeps one row.
        executionReviewKey: failed ? null : `review:${execution.id}`,
        sourceTaskId: task.id,
        executionId: execution.id,
        payload: {
          taskId: task.id,
          title: task.title,
          status: end.status,
          endReason: execution.endReason,
          outcome: execution.outcome,
          errorCode: execution.error?.code ?? null,
          endedAt: execution.endedAt,
          // How it ended in a person's words (a Stop or a shutdown is not a failure), and why.
          summary: `${execution.outcome ?? end.status}${execution.endReason ? ` (${execution.endReason})` : ''}`,
        },
      });
      return added === undefined ? 'no_event' : 'workbench_event';
    });
  }
}

function parse<T extends z.ZodTypeAny>(schema: T, event: DomainEvent): z.output<T> {
  const result = schema.safeParse(event.payload);
  if (!result.success) {
    throw new SvcError({ code: 'invalid_domain_event', message: `domain event ${event.id} (${event.type}) has a payload the Workbench cannot read`, details: { eventId: event.id } });
  }
  return result.data;
}

function executionOf(services: OperationContext['services'], id: number) {
  try {
    return services.domain.executions.get(id);
  } catch (error) {
    if (SvcError.isInstance(error) && error.code === 'execution_not_found') return undefined;
    throw error;
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function turnIdOf(payload: Record<string, unknown> | null): string | undefined {
  const id = payload?.turn_id ?? payload?.['turn-id'] ?? payload?.turnId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function lastMessageOf(payload: Record<string, unknown> | null): string {
  const text = payload?.last_assistant_message ?? payload?.['last-assistant-message'] ?? payload?.lastMessage;
  return typeof text === 'string' ? text.slice(0, 2000) : '';
}
