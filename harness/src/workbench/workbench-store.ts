import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '@svc-org/host/platform/db';
import { WorkbenchEventRowSchema, type NewWorkbenchEvent, type WorkbenchEvent } from './workbench-event.js';

export const WORKBENCH_TITLE = 'Workbench';

export interface BatchRow {
  id: number;
  parentTaskId: number;
  state: 'CLAIMED' | 'DELIVERED' | 'ACKED' | 'RESOLVED';
  taskMessageId: number | null;
  note: string | null;
  createdAt: string;
  deliveredAt: string | null;
  ackedAt: string | null;
  resolvedAt: string | null;
}

/**
 * The Workbench's durable state: one parent task per project, its events (deduplicated by the
 * database: `dedup_key` and `execution_review_key` are unique) and its review batches. Every method
 * that writes more than one row runs inside the caller's transaction.
 */
export class WorkbenchStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
  }

  workbenchOf(projectId: number): number | undefined {
    const row = this.db.prepare('SELECT task_id FROM harness_workbenches WHERE project_id = ?').get(projectId) as { task_id: number } | undefined;
    return row?.task_id;
  }

  isWorkbench(taskId: number): boolean {
    return this.db.prepare('SELECT 1 FROM harness_workbenches WHERE task_id = ?').get(taskId) !== undefined;
  }

  /**
   * The project's Workbench task, made on first need (call inside a transaction: the task and its
   * registration commit together, and the primary key keeps one per project).
   */
  ensureWorkbench(projectId: number): number {
    const existing = this.workbenchOf(projectId);
    if (existing !== undefined) return existing;
    const at = this.now().toISOString();
    const task = this.db
      .prepare(
        `INSERT INTO tasks (project_id, parent_task_id, title, description, status, unattended, created_at, updated_at)
         VALUES (?, NULL, ?, ?, 'IN_PROGRESS', 0, ?, ?) RETURNING id`,
      )
      .get(projectId, WORKBENCH_TITLE, 'The project\'s parent task: reviews child reports, gateway discussions and work requests.', at, at) as { id: number };
    this.db.prepare('INSERT INTO harness_workbenches (project_id, task_id, created_at) VALUES (?, ?, ?)').run(projectId, task.id, at);
    return task.id;
  }

  /** Adds an event; a second one with the same dedupKey (or review key) is ignored. The id of the kept row, or undefined when it lost. */
  addEvent(event: NewWorkbenchEvent): number | undefined {
    const row = this.db
      .prepare(
        `INSERT INTO harness_workbench_events (parent_task_id, kind, priority, dedup_key, execution_review_key, source_task_id, execution_id, inbound_id,
           payload, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?) ON CONFLICT DO NOTHING RETURNING id`,
      )
      .get(
        event.parentTaskId,
        event.kind,
        event.priority,
        event.dedupKey,
        event.executionReviewKey ?? null,
        event.sourceTaskId ?? null,
        event.executionId ?? null,
        event.inboundId ?? null,
        JSON.stringify(event.payload ?? null),
        this.now().toISOString(),
      ) as { id: number } | undefined;
    return row?.id;
  }

  hasReviewKey(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM harness_workbench_events WHERE execution_review_key = ?').get(key) !== undefined;
  }

  events(filter: { parentTaskId?: number; batchId?: number; inboundId?: number; state?: 'PENDING' | 'BATCHED' }): WorkbenchEvent[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.parentTaskId !== undefined) (where.push('parent_task_id = ?'), args.push(filter.parentTaskId));
    if (filter.batchId !== undefined) (where.push('batch_id = ?'), args.push(filter.batchId));
    if (filter.inboundId !== undefined) (where.push('inbound_id = ?'), args.push(filter.inboundId));
    if (filter.state !== undefined) (where.push('state = ?'), args.push(filter.state));
    return this.db
      .prepare(`SELECT * FROM harness_workbench_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`)
      .all(...args)
      .map((row) => WorkbenchEventRowSchema.parse(row));
  }

  /** Parents with pending events, oldest first. */
  parentsWithPending(): { parentTaskId: number; oldest: string }[] {
    return (
      this.db
        .prepare("SELECT parent_task_id, MIN(created_at) AS oldest FROM harness_workbench_events WHERE state = 'PENDING' GROUP BY parent_task_id ORDER BY oldest")
        .all() as { parent_task_id: number; oldest: string }[]
    ).map((row) => ({ parentTaskId: row.parent_task_id, oldest: row.oldest }));
  }

  /**
   * Claims the parent's pending events as one batch (call inside a transaction). The partial unique
   * index allows one CLAIMED batch per parent, so a second deliverer gets undefined.
   */
  claimBatch(parentTaskId: number, leaseMs: number, render: (events: WorkbenchEvent[], batchId: number) => string): { batchId: number; body: string; events: WorkbenchEvent[] } | undefined {
    const pending = this.events({ parentTaskId, state: 'PENDING' });
    if (pending.length === 0) return undefined;
    const at = this.now();
    const batch = this.db
      .prepare(
        `INSERT INTO harness_workbench_batches (parent_task_id, state, lease_until, created_at) VALUES (?, 'CLAIMED', ?, ?)
         ON CONFLICT DO NOTHING RETURNING id`,
      )
      .get(parentTaskId, at.getTime() + leaseMs, at.toISOString()) as { id: number } | undefined;
    if (!batch) return undefined;
    this.db.prepare("UPDATE harness_workbench_events SET state = 'BATCHED', batch_id = ? WHERE parent_task_id = ? AND state = 'PENDING' AND id <= ?").run(
      batch.id,
      parentTaskId,
      pending[pending.length - 1]!.id,
    );
    const body = render(pending, batch.id);
    const message = this.db
      .prepare("INSERT INTO harness_task_messages (task_id, role, body, created_at) VALUES (?, 'SYSTEM', ?, ?) RETURNING id")
      .get(parentTaskId, body, at.toISOString()) as { id: number };
    this.db.prepare('UPDATE harness_workbench_batches SET task_message_id = ? WHERE id = ?').run(message.id, batch.id);
    return { batchId: batch.id, body, events: pending };
  }

  delivered(batchId: number): void {
    this.db.prepare("UPDATE harness_workbench_batches SET state = 'DELIVERED', lease_until = NULL, delivered_at = ? WHERE id = ? AND state = 'CLAIMED'").run(this.now().toISOString(), batchId);
  }

  /** A delivery that failed (or whose claim expired): its events are PENDING again and the batch is gone (call inside a transaction). */
  release(batchId: number): void {
    this.db.prepare("UPDATE harness_workbench_events SET state = 'PENDING', batch_id = NULL WHERE batch_id = ? AND state = 'BATCHED'").run(batchId);
    const row = this.db.prepare("DELETE FROM harness_workbench_batches WHERE id = ? AND state = 'CLAIMED' RETURNING task_message_id").get(batchId) as
      | { task_message_id: number | null }
      | undefined;
    if (row?.task_message_id != null) this.db.prepare('DELETE FROM harness_task_messages WHERE id = ?').run(row.task_message_id);
  }

  expiredClaims(): number[] {
    return (this.db.prepare("SELECT id FROM harness_workbench_batches WHERE state = 'CLAIMED' AND lease_until < ?").all(this.now().getTime()) as { id: number }[]).map((r) => r.id);
  }

  batch(batchId: number): BatchRow {
    const row = this.db.prepare('SELECT * FROM harness_workbench_batches WHERE id = ?').get(batchId) as Record<string, unknown> | undefined;
    if (!row) throw new SvcError({ code: 'batch_not_found', message: `no review batch ${batchId}`, details: { batchId } });
    return {
      id: row.id as number,
      parentTaskId: row.parent_task_id as number,
      state: row.state as BatchRow['state'],
      taskMessageId: row.task_message_id as number | null,
      note: row.note as string | null,
      createdAt: row.created_at as string,
      deliveredAt: row.delivered_at as string | null,
      ackedAt: row.acked_at as string | null,
      resolvedAt: row.resolved_at as string | null,
    };
  }

  batches(parentTaskId: number): BatchRow[] {
    return (this.db.prepare('SELECT id FROM harness_workbench_batches WHERE parent_task_id = ? ORDER BY id').all(parentTaskId) as { id: number }[]).map((r) => this.batch(r.id));
  }

  ack(batchId: number): BatchRow {
    this.db.prepare("UPDATE harness_workbench_batches SET state = 'ACKED', acked_at = ? WHERE id = ? AND state = 'DELIVERED'").run(this.now().toISOString(), batchId);
    return this.batch(batchId);
  }

  resolve(batchId: number, note: string | null): BatchRow {
    this.db.prepare("UPDATE harness_workbench_batches SET state = 'RESOLVED', resolved_at = ?, note = ? WHERE id = ? AND state = 'ACKED'").run(this.now().toISOString(), note, batchId);
    return this.batch(batchId);
  }

  taskMessages(taskId: number): { id: number; role: string; body: string; createdAt: string }[] {
    return (this.db.prepare('SELECT id, role, body, created_at FROM harness_task_messages WHERE task_id = ? ORDER BY id').all(taskId) as {
      id: number;
      role: string;
      body: string;
      created_at: string;
    }[]).map((r) => ({ id: r.id, role: r.role, body: r.body, createdAt: r.created_at }));
  }
}
