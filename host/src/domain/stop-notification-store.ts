import { z } from 'zod';
import { transaction, type Db } from '../db/index.js';
import type { EventStore } from '../events/index.js';

export const StopNotificationRowSchema = z
  .object({
    id: z.number(),
    task_id: z.number().nullable(),
    execution_id: z.number().nullable(),
    session_id: z.string().nullable(),
    payload: z.string().transform((text) => JSON.parse(text) as unknown),
    received_at: z.string(),
    fanned_out_at: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    taskId: row.task_id,
    executionId: row.execution_id,
    sessionId: row.session_id,
    payload: row.payload,
    receivedAt: row.received_at,
    fannedOutAt: row.fanned_out_at,
  }));

export type StopNotification = z.output<typeof StopNotificationRowSchema>;

/** Stop-hook notifications, persisted on arrival; the harness fans them out (and marks them) later. */
export class StopNotificationStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly events?: EventStore,
  ) {}

  add(input: { taskId: number | null; executionId: number | null; sessionId: string | null; payload: unknown }): StopNotification {
    return transaction(this.db, () => {
      const result = this.db
        .prepare('INSERT INTO stop_notifications (task_id, execution_id, session_id, payload, received_at) VALUES (?, ?, ?, ?, ?)')
        .run(input.taskId, input.executionId, input.sessionId, JSON.stringify(input.payload ?? null), this.now().toISOString());
      const notification = StopNotificationRowSchema.parse(this.db.prepare('SELECT * FROM stop_notifications WHERE id = ?').get(Number(result.lastInsertRowid)));
      this.events?.append({
        type: 'stop_hook_arrived',
        dedupKey: `stop_hook_arrived:${notification.id}`,
        payload: { notificationId: notification.id, taskId: notification.taskId, executionId: notification.executionId, sessionId: notification.sessionId },
      });
      return notification;
    });
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
