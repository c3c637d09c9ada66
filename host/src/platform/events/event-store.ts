import type { Db } from '../db/index.js';
import { DomainEventRowSchema, type DomainEvent, type NewDomainEvent } from './domain-event.js';

export interface ClaimOptions {
  /** Who holds the lease (one worker of one process). */
  owner: string;
  leaseMs: number;
  limit: number;
}

/**
 * The `domain_events` table. `append` uses the caller's connection and so joins the caller's open
 * transaction: the event exists exactly when the change it reports does. Claims are one
 * conditional UPDATE … RETURNING, so two workers (two processes) never hold the same event.
 */
export class EventStore {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  /** Records a fact; `false` when its dedup key was already recorded. */
  append(event: NewDomainEvent): boolean {
    const at = this.now();
    const result = this.db
      .prepare(
        `INSERT INTO domain_events (type, dedup_key, payload, status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (dedup_key) DO NOTHING`,
      )
      .run(event.type, event.dedupKey, JSON.stringify(event.payload), at, at);
    if (result.changes > 0) for (const listener of this.listeners) listener();
    return result.changes > 0;
  }

  /**
   * Called after each append in this process, so a worker here polls at once instead of at the end
   * of its wait. The append may still be inside an open transaction: a listener must only schedule
   * work (the transaction is synchronous, so the scheduled claim runs after it committed).
   */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Due events (pending and due, or processing with an expired lease), oldest first, now leased to `owner`. */
  claim(options: ClaimOptions): DomainEvent[] {
    const at = this.now();
    // A read first: an idle poll takes no write lock (the CLI and `svc mcp` write the same file).
    const due = this.db
      .prepare(`SELECT 1 FROM domain_events WHERE (status = 'pending' AND next_attempt_at <= ?) OR (status = 'processing' AND lease_until <= ?) LIMIT 1`)
      .get(at, at);
    if (!due) return [];
    return this.db
      .prepare(
        `UPDATE domain_events SET status = 'processing', lease_owner = ?, lease_until = ?, attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM domain_events
           WHERE (status = 'pending' AND next_attempt_at <= ?) OR (status = 'processing' AND lease_until <= ?)
           ORDER BY id LIMIT ?
         )
         RETURNING *`,
      )
      .all(options.owner, at + options.leaseMs, at, at, options.limit)
      .map((row) => DomainEventRowSchema.parse(row))
      .sort((a, b) => a.id - b.id);
  }

  /** Marks a claimed event handled; `false` when the lease was lost (another worker took it over). */
  complete(id: number, owner: string): boolean {
    const result = this.db
      .prepare(`UPDATE domain_events SET status = 'done', processed_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND status = 'processing' AND lease_owner = ?`)
      .run(this.now(), id, owner);
    return result.changes > 0;
  }

  /** A handler failed: try again at `retryAt`, or give up (`failed`) once `attempts` reached `maxAttempts`. */
  fail(id: number, owner: string, error: string, retryAt: number, maxAttempts: number): void {
    this.db
      .prepare(
        `UPDATE domain_events SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'pending' END,
           next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
      )
      .run(maxAttempts, retryAt, error.slice(0, 2000), id, owner);
  }

  /**
   * Returns every claim to `pending` at once, without waiting for its lease. Only for a process that
   * knows no other worker is alive: `svc serve` holds the SVC_HOME lock, so a claim it finds at start
   * belonged to a service that died. The attempt it used stays counted.
   */
  releaseClaims(): number {
    return this.db
      .prepare(`UPDATE domain_events SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL WHERE status = 'processing'`)
      .run(this.now()).changes;
  }

  /**
   * Deletes events handled (`done`) before `before`, so the table does not grow with every
   * execution and status change forever. Failed events stay for diagnosis. A fact's dedup key goes
   * with its row: only facts far older than any retry or duplicate report are removed.
   */
  pruneHandled(before: number): number {
    return this.db.prepare(`DELETE FROM domain_events WHERE status = 'done' AND processed_at < ?`).run(before).changes;
  }

  get(id: number): DomainEvent | undefined {
    const row = this.db.prepare('SELECT * FROM domain_events WHERE id = ?').get(id);
    return row ? DomainEventRowSchema.parse(row) : undefined;
  }

  list(filter: { type?: string } = {}): DomainEvent[] {
    const rows = filter.type
      ? this.db.prepare('SELECT * FROM domain_events WHERE type = ? ORDER BY id').all(filter.type)
      : this.db.prepare('SELECT * FROM domain_events ORDER BY id').all();
    return rows.map((row) => DomainEventRowSchema.parse(row));
  }
}
