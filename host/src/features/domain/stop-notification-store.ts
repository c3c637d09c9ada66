import { z } from 'zod';
import { transaction, type Db } from '../../platform/db/index.js';
import type { EventStore } from '../../platform/events/index.js';

export const STOP_NOTIFICATION_SOURCES = ['hook', 'codex-notify'] as const;
export type StopNotificationSource = (typeof STOP_NOTIFICATION_SOURCES)[number];

// Built at its first parse (z.lazy): a command that reads no stop notification row never constructs it.
export const StopNotificationRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      task_id: z.number().nullable(),
      execution_id: z.number().nullable(),
      session_id: z.string().nullable(),
      turn_id: z.string().nullable(),
      source: z.enum(STOP_NOTIFICATION_SOURCES),
      payload: z.string().transform((text) => JSON.parse(text) as unknown),
      received_at: z.string(),
      fanned_out_at: z.string().nullable(),
    })
    .transform((row) => ({
      id: row.id,
      taskId: row.task_id,
      executionId: row.execution_id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      source: row.source,
      payload: row.payload,
      receivedAt: row.received_at,
      fannedOutAt: row.fanned_out_at,
    })),
);

export type StopNotification = z.output<typeof StopNotificationRowSchema>;

export interface NewStopNotification {
  taskId: number | null;
  executionId: number | null;
  sessionId: string | null;
  /** The CLI's turn id, when its hook input has one: one row per task and turn. */
  turnId?: string | null;
  source?: StopNotificationSource;
  payload: unknown;
}

/** Stop-hook notifications, persisted on arrival; the harness fans them out (and marks them) later. */
export class StopNotificationStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly events?: EventStore,
  ) {}

  /**
   * Keeps a turn's end once: a second report of the same task and turn (Codex's Stop hook and its
   * notify callback) returns the first row with `duplicate: true`. The unique index decides, so two
   * reports racing from two processes still leave one row. The durable event is written in the same
   * transaction as the row, once.
   */
  add(input: NewStopNotification): { notification: StopNotification; duplicate: boolean } {
    return transaction(this.db, () => {
      const turnId = input.turnId ?? null;
      const result = this.db
        .prepare(
          `INSERT INTO stop_notifications (task_id, execution_id, session_id, turn_id, source, payload, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(input.taskId, input.executionId, input.sessionId, turnId, input.source ?? 'hook', JSON.stringify(input.payload ?? null), this.now().toISOString());
      if (result.changes === 0) {
        const first = this.db.prepare('SELECT * FROM stop_notifications WHERE task_id = ? AND turn_id = ?').get(input.taskId, turnId);
        return { notification: StopNotificationRowSchema.parse(first), duplicate: true };
      }
      const notification = this.get(Number(result.lastInsertRowid));
      this.events?.append({
        type: 'stop_hook_arrived',
        dedupKey: `stop_hook_arrived:${notification.id}`,
        payload: { notificationId: notification.id, taskId: notification.taskId, executionId: notification.executionId, sessionId: notification.sessionId },
      });
      return { notification, duplicate: false };
    });
  }

  get(id: number): StopNotification {
    return StopNotificationRowSchema.parse(this.db.prepare('SELECT * FROM stop_notifications WHERE id = ?').get(id));
  }

  find(id: number): StopNotification | undefined {
    const row = this.db.prepare('SELECT * FROM stop_notifications WHERE id = ?').get(id);
    return row ? StopNotificationRowSchema.parse(row) : undefined;
  }

  pending(limit = 100): StopNotification[] {
    return this.db
      .prepare('SELECT * FROM stop_notifications WHERE fanned_out_at IS NULL ORDER BY id LIMIT ?')
      .all(limit)
      .map((row) => StopNotificationRowSchema.parse(row));
  }

  markFannedOut(id: number): void {
    this.db.prepare('UPDATE stop_notifications SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL').run(this.now().toISOString(), id);
  }
}
