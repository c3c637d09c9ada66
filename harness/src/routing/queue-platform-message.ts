import { randomUUID } from 'node:crypto';
import type { Db } from '@svc-org/host/platform/db';

export interface PlatformMessage {
  kind: 'PUSH' | 'FINAL_RESULT';
  taskId: number | null;
  projectId: number | null;
  workspaceId: number | null;
  body: string;
  channelId: number;
  gatewayId: number;
  to: string;
  threadId: string | null;
  /** The platform message this one answers, sent as a reply where the gateway can. */
  replyToId?: string | null;
}

/**
 * A message plus its outbox row, written inside the caller's transaction so that the state change
 * that produced it (a task moving to DONE, a discussion answered) commits with it or not at all. The
 * outbox worker sends it like any push.
 */
export function queuePlatformMessage(db: Db, message: PlatformMessage, now = new Date()): { messageId: number; outboxId: string } {
  const at = now.toISOString();
  const row = db
    .prepare(
      `INSERT INTO harness_messages (kind, task_id, project_id, workspace_id, execution_id, body, status, expect_reply, channel_id, target_to, target_thread,
         target_reply_to, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, 'PENDING_DELIVERY', 0, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(message.kind, message.taskId, message.projectId, message.workspaceId, message.body, message.channelId, message.to, message.threadId, message.replyToId ?? null, at, at) as {
    id: number;
  };
  const outboxId = randomUUID();
  db.prepare(
    `INSERT INTO harness_outbound (id, message_id, gateway_id, state, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, 'PENDING', 0, ?, ?, ?)`,
  ).run(outboxId, row.id, message.gatewayId, now.getTime(), at, at);
  return { messageId: row.id, outboxId };
}
