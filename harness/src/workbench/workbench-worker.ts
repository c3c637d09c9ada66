import { SvcError } from '@svc-org/ai-sdk';
import { transaction } from '../../../host/src/db/index.js';
import type { OperationContext } from '../../../host/src/operations/index.js';
import type { TerminalManager } from '../../../host/src/terminals/index.js';
import { submitReply } from '../messaging/index.js';
import type { RoutingStores } from '../routing/routing-stores.js';
import { renderReviewBatch } from './render-review-batch.js';

export interface WorkbenchWorkerOptions {
  services: OperationContext['services'];
  stores: RoutingStores;
  terminals?: TerminalManager;
  /** Longest sleep between looks (stop hooks and execution ends are read from the database). */
  pollMs?: number;
  /** Events arriving this long after the parent's turn ended still join its batch. */
  windowMs?: number;
  leaseMs?: number;
  /** A still screen this long before a batch is typed (default 500 ms). */
  quietMs?: number;
}

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The Workbench's one timer in `svc serve`. It turns stop hooks of child tasks and ends of their
 * executions into WorkbenchEvents (the database keeps each once), and when a parent's own turn has
 * ended and the window has passed, merges its pending events into one review batch, saves it as a
 * SYSTEM task message and types it into the parent's terminal. Every step is a row first, so a
 * kill at any moment loses nothing: an expired claim is released at start and delivered again.
 */
export class WorkbenchWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private stopWatermark = 0;
  private readonly pollMs: number;
  private readonly windowMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: WorkbenchWorkerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.windowMs = options.windowMs ?? 2000;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  start(): void {
    this.recoverExpiredClaims();
    this.schedule(0);
  }

  /** Look now (a new event was written in this process). */
  notify(): void {
    if (!this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One full pass; exposed for tests and for `svc harness drain`-like callers. */
  async tick(): Promise<void> {
    this.consumeStopNotifications();
    this.scanExecutionEnds();
    await this.deliverDue();
  }

  recoverExpiredClaims(): number {
    const expired = this.options.stores.workbench.expiredClaims();
    for (const batchId of expired) transaction(this.options.services.db, () => this.options.stores.workbench.release(batchId));
    return expired.length;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running) return this.schedule(50);
      this.running = this.tick()
        .catch((error) => this.options.services.logger.warn('workbench pass failed', { code: error instanceof SvcError ? error.code : 'internal_error' }))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.pollMs);
        });
    }, delayMs);
    this.timer.unref?.();
  }

  /** Child stop hooks become events for their parent; each notification is looked at once (a cursor row). */
  consumeStopNotifications(): void {
    const { db, domain } = this.options.services;
    const { workbench } = this.options.stores;
    const rows = db
      .prepare(
        `SELECT s.id, s.task_id, s.execution_id, s.payload, s.received_at FROM stop_notifications s
         WHERE s.id > ? AND NOT EXISTS (SELECT 1 FROM harness_stop_cursor c WHERE c.notification_id = s.id) ORDER BY s.id LIMIT 200`,
      )
      .all(this.stopWatermark) as { id: number; task_id: number | null; execution_id: number | null; payload: string; received_at: string }[];
    // A row is in the cursor once its transaction commits (here or in another process), and ids
    // commit in order with one writer, so the next pass starts after the last row handled.
    for (const row of rows) {
      transaction(db, () => {
        const mine = db.prepare('INSERT INTO harness_stop_cursor (notification_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING notification_id').get(row.id, new Date().toISOString());
        if (!mine) return;
        db.prepare('UPDATE stop_notifications SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL').run(new Date().toISOString(), row.id);
        if (row.task_id === null) return;
        const task = domain.tasks.find(row.task_id);
        if (!task || task.parentTaskId === null) return;
        const payload = JSON.parse(row.payload) as Record<string, unknown> | null;
        const turn = turnIdOf(payload) ?? `n${row.id}`;
        // The first turn end of an execution is its review; the execution's COMPLETED fallback then adds nothing.
        const reviewKey = row.execution_id !== null ? `review:${row.execution_id}` : null;
        const keyFree = reviewKey !== null && !workbench.hasReviewKey(reviewKey);
        workbench.addEvent({
          parentTaskId: task.parentTaskId,
          kind: 'CHILD_TURN_ENDED',
          priority: 'normal',
          dedupKey: `stop:${task.id}:${turn}`,
          executionReviewKey: keyFree ? reviewKey : null,
          sourceTaskId: task.id,
          executionId: row.execution_id,
          payload: { taskId: task.id, title: task.title, receivedAt: row.received_at, summary: lastMessageOf(payload), hook: payload },
        });
      });
      this.stopWatermark = row.id;
    }
  }

  /** Execution ends of child tasks (every provider): FAILED always, COMPLETED only without a stop-hook review. */
  scanExecutionEnds(): void {
    const { db } = this.options.services;
    const { workbench } = this.options.stores;
    const since = new Date(Date.now() - SEVEN_DAYS_MS).toISOString();
    const rows = db
      .prepare(
        `SELECT e.id, e.task_id, e.status, e.end_reason, e.error_code, e.ended_at, t.parent_task_id, t.title FROM executions e JOIN tasks t ON t.id = e.task_id
         WHERE t.parent_task_id IS NOT NULL AND e.status IN ('COMPLETED', 'FAILED') AND e.ended_at >= ?
           AND NOT EXISTS (SELECT 1 FROM harness_workbench_events w WHERE w.dedup_key = 'exec:' || e.id)
           AND (e.status = 'FAILED' OR NOT EXISTS (SELECT 1 FROM harness_workbench_events w WHERE w.execution_review_key = 'review:' || e.id))
         ORDER BY e.id LIMIT 200`,
      )
      .all(since) as { id: number; task_id: number; status: 'COMPLETED' | 'FAILED'; end_reason: string | null; error_code: string | null; ended_at: string; parent_task_id: number; title: string }[];
    for (const row of rows) {
      const failed = row.status === 'FAILED';
      workbench.addEvent({
        parentTaskId: row.parent_task_id,
        kind: failed ? 'EXECUTION_FAILED' : 'EXECUTION_COMPLETED',
        priority: failed ? 'high' : 'normal',
        dedupKey: `exec:${row.id}`,
        executionReviewKey: failed ? null : `review:${row.id}`,
        sourceTaskId: row.task_id,
        executionId: row.id,
        payload: { taskId: row.task_id, title: row.title, status: row.status, endReason: row.end_reason, errorCode: row.error_code, endedAt: row.ended_at, summary: `${row.status}${row.end_reason ? ` (${row.end_reason})` : ''}` },
      });
    }
  }

  /**
   * A parent gets its batch when it has pending events, a live terminal here, and its own turn ended
   * (a stop hook newer than its last batch) at least the window ago.
   */
  async deliverDue(): Promise<void> {
    const { terminals, stores, services } = this.options;
    if (!terminals) return;
    for (const { parentTaskId } of stores.workbench.parentsWithPending()) {
      const terminal = terminals.summary(parentTaskId);
      if (!terminal || terminal.state !== 'RUNNING') continue;
      // The turn end must be this run's: a stop hook of a run a kill ended says nothing about the new one.
      const turnEnd = services.db
        .prepare('SELECT received_at FROM stop_notifications WHERE task_id = ? AND execution_id = ? ORDER BY id DESC LIMIT 1')
        .get(parentTaskId, terminal.executionId) as { received_at: string } | undefined;
      if (!turnEnd) continue;
      const last = services.db.prepare('SELECT MAX(created_at) AS at FROM harness_workbench_batches WHERE parent_task_id = ?').get(parentTaskId) as { at: string | null };
      if (last.at !== null && last.at >= turnEnd.received_at) continue;
      if (Date.now() - Date.parse(turnEnd.received_at) < this.windowMs) {
        this.schedule(Math.max(50, this.windowMs - (Date.now() - Date.parse(turnEnd.received_at))));
        continue;
      }
      const claim = transaction(services.db, () => stores.workbench.claimBatch(parentTaskId, this.leaseMs, renderReviewBatch));
      if (!claim) continue;
      try {
        await submitReply(terminals, parentTaskId, claim.body, { waitForQuietMs: this.options.quietMs ?? 500 });
        stores.workbench.delivered(claim.batchId);
      } catch (error) {
        transaction(services.db, () => stores.workbench.release(claim.batchId));
        services.logger.warn('review batch not delivered; its events wait again', { batchId: claim.batchId, code: error instanceof SvcError ? error.code : 'internal_error' });
      }
    }
  }
}

function turnIdOf(payload: Record<string, unknown> | null): string | undefined {
  const id = payload?.turn_id ?? payload?.['turn-id'] ?? payload?.turnId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function lastMessageOf(payload: Record<string, unknown> | null): string {
  const text = payload?.last_assistant_message ?? payload?.['last-assistant-message'] ?? payload?.lastMessage;
  return typeof text === 'string' ? text.slice(0, 2000) : '';
}
