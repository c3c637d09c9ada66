import { SvcError } from '@svc-org/ai-sdk';
import { transaction } from '@svc-org/host/platform/db';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { TerminalManager } from '@svc-org/host/features/terminals';
import { submitReply } from '../messaging/index.js';
import type { RoutingStores } from '../routing/routing-stores.js';
import { renderReviewBatch } from './render-review-batch.js';

export interface WorkbenchWorkerOptions {
  services: OperationContext['services'];
  stores: RoutingStores;
  terminals?: TerminalManager;
  /** Longest sleep between looks for due batches. */
  pollMs?: number;
  /** Events arriving this long after the parent's turn ended still join its batch. */
  windowMs?: number;
  leaseMs?: number;
  /** A still screen this long before a batch is typed (default 500 ms). */
  quietMs?: number;
  /** The least time between two starts of one Workbench by this worker (default 60 s). */
  autoStartIntervalMs?: number;
}

/**
 * The Workbench's delivery timer in `svc serve`. WorkbenchEvents are written by the domain-event
 * consumer (`WorkbenchEventConsumer`, run by the service's event worker) and by routing; this timer
 * waits until a parent's own turn has ended and the window has passed, merges its pending events
 * into one review batch, saves it as a SYSTEM task message and types it into the parent's terminal.
 * Every step is a row first, so a kill at any moment loses nothing: an expired claim is released at
 * start and delivered again.
 */
export class WorkbenchWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly pollMs: number;
  private readonly windowMs: number;
  private readonly leaseMs: number;
  /** Workbench runs this worker started, by task: their prompt is a turn end of its own. */
  private readonly autoStarted = new Map<number, { executionId: number; at: number }>();

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

  /** One full pass; exposed for tests. */
  async tick(): Promise<void> {
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
        .catch((error) => this.options.services.logger.warn('workbench pass failed', { code: SvcError.isInstance(error) ? error.code : 'internal' }))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.pollMs);
        });
    }, delayMs);
    this.timer.unref?.();
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
      if (!terminal || terminal.state === 'ENDED') {
        await this.autoStart(parentTaskId);
        continue;
      }
      if (terminal.state !== 'RUNNING') continue;
      // The turn end must be this run's: a stop hook of a run a kill ended says nothing about the new one.
      const turnEnd = services.db
        .prepare('SELECT received_at FROM stop_notifications WHERE task_id = ? AND execution_id = ? ORDER BY id DESC LIMIT 1')
        .get(parentTaskId, terminal.executionId) as { received_at: string } | undefined;
      const last = services.db.prepare('SELECT MAX(created_at) AS at FROM harness_workbench_batches WHERE parent_task_id = ?').get(parentTaskId) as { at: string | null };
      if (!turnEnd) {
        // A Workbench this worker started for its events has had no turn yet: it gets its first batch
        // once it is not busy (submitReply then waits for its prompt); nobody else's run is typed into.
        const started = this.autoStarted.get(parentTaskId);
        if (started?.executionId !== terminal.executionId || terminal.turn === 'busy') continue;
        const startedAt = services.domain.executions.get(terminal.executionId).startedAt;
        if (last.at !== null && last.at >= startedAt) continue;
      } else if (last.at !== null && last.at >= turnEnd.received_at) {
        continue;
      } else if (Date.now() - Date.parse(turnEnd.received_at) < this.windowMs) {
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
        services.logger.warn('review batch not delivered; its events wait again', { batchId: claim.batchId, code: SvcError.isInstance(error) ? error.code : 'internal' });
      }
    }
  }

  /**
   * A project's Workbench with events waiting and no live terminal is started (its CLI session
   * resumed when it has one) through the project's default connection (`set_task_defaults`), at most
   * once a minute; without a default connection its events wait until someone starts it.
   */
  private async autoStart(taskId: number): Promise<void> {
    const { terminals, stores, services } = this.options;
    if (!terminals || !stores.workbench.isWorkbench(taskId)) return;
    const previous = this.autoStarted.get(taskId);
    if (previous && Date.now() - previous.at < (this.options.autoStartIntervalMs ?? 60_000)) return;
    const task = services.domain.tasks.get(taskId);
    if (task.status === 'DONE') return;
    const defaults = services.domain.taskDefaults.get(task.projectId);
    if (!defaults.connection) return;
    // A run a person stopped stays stopped until something new arrives for it; a run the service's
    // own shutdown or restart ended is picked up again.
    const latest = services.domain.executions.latestForTask(taskId);
    if (latest?.endedAt && latest.endReason !== 'service_shutdown' && latest.endReason !== 'service_restart') {
      const newest = services.db.prepare("SELECT MAX(created_at) AS at FROM harness_workbench_events WHERE parent_task_id = ? AND state = 'PENDING'").get(taskId) as { at: string | null };
      if (newest.at === null || newest.at <= latest.endedAt) return;
    }
    this.autoStarted.set(taskId, { executionId: -1, at: Date.now() });
    try {
      const execution = await terminals.resume(taskId, { connection: defaults.connection, ...(defaults.model ? { model: defaults.model } : {}) });
      this.autoStarted.set(taskId, { executionId: execution.id, at: Date.now() });
      services.logger.info('workbench started for its waiting events', { taskId, executionId: execution.id, connection: defaults.connection });
    } catch (error) {
      services.logger.warn('workbench could not be started for its waiting events', { taskId, code: SvcError.isInstance(error) ? error.code : 'internal' });
    }
  }
}
