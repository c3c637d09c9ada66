// Inside `svc serve`: compares the branches of each project's open tasks with each other and with
// their base's tip in the background (the overlap warning; a task that now conflicts with its base
// is a domain event) and, at most hourly, collects worktrees of tasks done longer than the retention.
import { SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../platform/logging/index.js';
import { DEFAULT_RETENTION_DAYS } from './collect-task-worktrees.js';
import type { BaseConflict } from './task-overlaps.js';
import type { TaskWorktrees } from './task-worktrees.js';
import type { TaskOverlap } from './worktree-store.js';

export interface WorktreeWatcherOptions {
  worktrees: TaskWorktrees;
  logger: Logger;
  /** A pair of open tasks overlapping, at every pass (the report is deduplicated where it is stored). */
  onOverlap(projectId: number, overlap: TaskOverlap): void;
  /** An open task now conflicts with its base's tip (its domain event is already recorded). */
  onBaseConflict?(projectId: number, conflict: BaseConflict): void;
  /** Read: SVC_WORKTREE_CHECK_INTERVAL_MS (default 60000), SVC_WORKTREE_RETENTION_DAYS (default 7). */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

const STATES = { created: 'created', active: 'active', stopping: 'stopping', stopped: 'stopped' } as const;
const COLLECT_EVERY_MS = 60 * 60_000;

export class WorktreeWatcher {
  private state: (typeof STATES)[keyof typeof STATES] = STATES.created;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastCollect = 0;
  private consecutiveErrors = 0;
  readonly intervalMs: number;
  readonly retentionDays: number;

  constructor(private readonly options: WorktreeWatcherOptions) {
    const env = options.env ?? process.env;
    this.intervalMs = positive(env.SVC_WORKTREE_CHECK_INTERVAL_MS, 'SVC_WORKTREE_CHECK_INTERVAL_MS', 'a positive whole number of milliseconds', true) ?? 60_000;
    this.retentionDays = positive(env.SVC_WORKTREE_RETENTION_DAYS, 'SVC_WORKTREE_RETENTION_DAYS', 'a number of days, 0 or more', false) ?? DEFAULT_RETENTION_DAYS;
  }

  start(): void {
    if (this.state !== STATES.created) return;
    this.state = STATES.active;
    this.schedule(Math.min(this.intervalMs, 1000));
  }

  /** Checks now (a task's branch moved); the regular pass continues after. */
  notify(): void {
    if (this.state !== STATES.active || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.state = STATES.stopping;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.state = STATES.stopped;
  }

  /** One pass: every project with an open task worktree, then the collection when due. */
  async pass(): Promise<void> {
    const { worktrees, onOverlap } = this.options;
    for (const projectId of worktrees.projectsWithOpenWorktrees()) {
      if (this.state === STATES.stopping) return;
      // Every overlap, not only those this pass found first: a `svc task worktree` in another
      // process may have recorded it before, and the report is deduplicated where it is stored.
      const { overlaps, newBaseConflicts } = await worktrees.checkOverlaps(projectId);
      for (const overlap of overlaps) onOverlap(projectId, overlap);
      for (const conflict of newBaseConflicts) this.options.onBaseConflict?.(projectId, conflict);
    }
    const now = (this.options.now ?? Date.now)();
    if (now - this.lastCollect >= COLLECT_EVERY_MS) {
      this.lastCollect = now;
      const { removed, skipped } = await worktrees.collect({ retentionDays: this.retentionDays });
      if (removed.length > 0) this.options.logger.info('task worktrees collected (branches kept)', { tasks: removed });
      for (const skip of skipped) this.options.logger.warn('task worktree not collected', { task: skip.taskId, code: skip.code });
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => {
          this.consecutiveErrors = 0;
        })
        .catch((error: unknown) => {
          this.consecutiveErrors++;
          this.options.logger.warn('task worktree check failed', { code: SvcError.hasCode(error) ? error.code : 'internal', consecutiveErrors: this.consecutiveErrors });
        })
        .finally(() => {
          this.running = undefined;
          // Back off while it keeps failing (git gone, a repository moved), up to ten intervals.
          if (this.state === STATES.active) this.schedule(this.intervalMs * Math.min(10, 2 ** this.consecutiveErrors));
        });
    }, delayMs);
    this.timer.unref?.();
  }
}

function positive(raw: string | undefined, name: string, rule: string, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  const ok = integer ? Number.isInteger(value) && value > 0 : Number.isFinite(value) && value >= 0;
  if (!ok) throw new SvcError({ code: 'invalid_settings', message: `${name} must be ${rule}` });
  return value;
}
