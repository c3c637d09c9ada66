import { transaction, type Db } from '@svc-org/host/platform/db';
import type { Domain } from '@svc-org/host/features/domain';
import type { SendOutcome } from '../gateways/index.js';
import { MessageStore } from '../messaging/index.js';
import type { OutboxEntry } from './outbox-entry.js';
import { retryDelay } from './retry-delay.js';
import { PreparedStatements } from '../gateways/index.js';

export interface RecordedOutcome {
  state: 'SENT' | 'SENT_UNVERIFIED' | 'PENDING' | 'FAILED';
  /** The task parked by this delivery (an expected reply), for the caller to hold its keepalive. */
  parkedTaskId?: number;
}

/**
 * The outbox's claims and results. A row is claimed by one conditional UPDATE under a lease, so
 * two processes never send one entry; every result is one transaction.
 */
export class OutboxStore {
  private readonly sql: PreparedStatements;
  private readonly messages: MessageStore;

  constructor(
    private readonly db: Db,
    private readonly domain: Domain,
    private readonly now: () => Date = () => new Date(),
    private readonly random: () => number = Math.random,
  ) {
    this.sql = new PreparedStatements(db);
    this.messages = new MessageStore(db, now);
  }

  /** Claims the most overdue PENDING row, or none. */
  claim(owner: string, leaseMs: number): OutboxEntry | undefined {
    const at = this.now();
    const row = this.sql
      .get(
        `UPDATE harness_outbound SET state = 'SENDING', lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
         WHERE message_id = (SELECT message_id FROM harness_outbound WHERE state = 'PENDING' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 1)
           AND state = 'PENDING'
         RETURNING id, message_id, gateway_id, attempts`,
      )
      .get(owner, at.getTime() + leaseMs, at.toISOString(), at.getTime()) as
      | { id: string; message_id: number; gateway_id: number | null; attempts: number }
      | undefined;
    if (!row) return undefined;
    const message = this.sql.get('SELECT task_id, body, channel_id, target_to, target_thread, target_reply_to FROM harness_messages WHERE id = ?').get(row.message_id) as {
      task_id: number | null;
      body: string;
      channel_id: number | null;
      target_to: string | null;
      target_thread: string | null;
      target_reply_to: string | null;
    };
    return {
      id: row.id,
      messageId: row.message_id,
      gatewayId: row.gateway_id,
      attempts: row.attempts,
      leaseOwner: owner,
      taskId: message.task_id,
      body: message.body,
      channelId: message.channel_id,
      to: message.target_to,
      threadId: message.target_thread,
      replyToId: message.target_reply_to,
    };
  }

  /** The earliest time a PENDING row falls due (epoch ms), for the worker's sleep. */
  nextDueAt(): number | undefined {
    const row = this.sql.get("SELECT MIN(next_attempt_at) AS due FROM harness_outbound WHERE state = 'PENDING'").get() as { due: number | null };
    return row.due ?? undefined;
  }

  /**
   * Rows left SENDING by a sender that died (its lease ran out, or its process is gone): the request
   * may have reached the gateway, so they become SENT_UNVERIFIED and wait for a person.
   */
  recoverAbandoned(isOwnerAlive: (owner: string) => boolean): number {
    const at = this.now();
    const rows = this.sql.get("SELECT id, message_id, lease_owner, lease_until FROM harness_outbound WHERE state = 'SENDING'").all() as {
      id: string;
      message_id: number;
      lease_owner: string | null;
      lease_until: number | null;
    }[];
    let recovered = 0;
    for (const row of rows) {
      const expired = row.lease_until === null || row.lease_until < at.getTime();
      if (!expired && row.lease_owner !== null && isOwnerAlive(row.lease_owner)) continue;
      transaction(this.db, () => {
        const changed = this.db
          .prepare(
            `UPDATE harness_outbound SET state = 'SENT_UNVERIFIED', lease_owner = NULL, lease_until = NULL, last_error_code = 'sender_lost',
               last_error_message = 'the sending process ended during the send; the gateway may have delivered it', updated_at = ?
             WHERE message_id = ? AND state = 'SENDING' AND lease_owner IS ?`,
          )
          .run(at.toISOString(), row.message_id, row.lease_owner);
        if (changed.changes === 1) {
          this.sql.get("UPDATE harness_messages SET status = 'SENT_UNVERIFIED', updated_at = ? WHERE id = ?").run(at.toISOString(), row.message_id);
          recovered += 1;
        }
      });
    }
    return recovered;
  }

  /** Records what one send proved, in one transaction. */
  record(entry: OutboxEntry, outcome: SendOutcome, where: { platform: string | null; chatId: string | null; threadId: string | null }): RecordedOutcome {
    const at = this.now();
    const iso = at.toISOString();
    return transaction(this.db, () => {
      if (outcome.kind === 'sent') {
        // A late proof of delivery also upgrades a row recovery already marked unverified.
        const changed = this.db
          .prepare(
            `UPDATE harness_outbound SET state = 'SENT', lease_owner = NULL, lease_until = NULL, last_error_code = NULL, last_error_message = NULL, updated_at = ?
             WHERE message_id = ? AND ((state = 'SENDING' AND lease_owner = ?) OR state = 'SENT_UNVERIFIED')`,
          )
          .run(iso, entry.messageId, entry.leaseOwner);
        if (changed.changes === 0) return { state: 'SENT' };
        this.sql.get("UPDATE harness_messages SET status = 'SENT', sent_at = ?, updated_at = ? WHERE id = ?").run(iso, iso, entry.messageId);
        this.db
          .prepare(
            `INSERT INTO harness_deliveries (outbound_id, message_id, task_id, gateway_id, platform, chat_id, thread_id, platform_message_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(entry.id, entry.messageId, entry.taskId, entry.gatewayId, where.platform, outcome.chatId ?? where.chatId, where.threadId, outcome.platformMessageId, iso);
        const intent = this.messages.askIntentOf(entry.messageId);
        if (!intent) return { state: 'SENT' };
        this.messages.openAsk(intent.id, intent.taskId);
        const live = this.domain.executions.liveForTask(intent.taskId);
        if (live?.status === 'RUNNING') this.domain.executions.setLiveStatus(live.id, 'PAUSED');
        return { state: 'SENT', ...(live ? { parkedTaskId: intent.taskId } : {}) };
      }
      const next =
        outcome.kind === 'retry'
          ? { outbound: 'PENDING', message: 'PENDING_DELIVERY', due: at.getTime() + retryDelay(entry.attempts, this.random) }
          : outcome.kind === 'unverified'
            ? { outbound: 'SENT_UNVERIFIED', message: 'SENT_UNVERIFIED', due: null }
            : { outbound: 'FAILED', message: 'FAILED', due: null };
      const changed = this.sql
        .get(
          `UPDATE harness_outbound SET state = ?, lease_owner = NULL, lease_until = NULL, last_error_code = ?, last_error_message = ?,
             next_attempt_at = COALESCE(?, next_attempt_at), updated_at = ?
           WHERE message_id = ? AND state = 'SENDING' AND lease_owner = ?`,
        )
        .run(next.outbound, outcome.code, outcome.message, next.due, iso, entry.messageId, entry.leaseOwner);
      if (changed.changes === 1) this.sql.get('UPDATE harness_messages SET status = ?, updated_at = ? WHERE id = ?').run(next.message, iso, entry.messageId);
      return { state: next.outbound as RecordedOutcome['state'] };
    });
  }
}
