import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db, type SqlValue } from '@svc-org/host/platform/db';
import { timeOrderedId } from './time-ordered-id.js';
import { presentMessageRow, type MessageRow } from './present-message-row.js';
import type { HarnessMessage } from './message-record.js';
import { PreparedStatements } from '../gateways/prepared-statements.js';

export interface Ownership {
  taskId: number;
  projectId: number | null;
  workspaceId: number | null;
  executionId: number | null;
}

export interface OpenAsk {
  id: number;
  messageId: number;
  taskId: number;
  executionId: number | null;
}

export interface PushInput extends Ownership {
  kind: 'PUSH' | 'FINAL_RESULT';
  body: string;
  channelId: number;
  gatewayId: number;
  to: string;
  threadId: string | null;
  expectReply: boolean;
}

export interface MessageFilter {
  workspaceId?: number;
  projectId?: number;
  taskId?: number;
  status?: string;
  limit: number;
  /** Messages with an id below this (the previous page's `nextBefore`). */
  before?: number;
}

const SELECT = `SELECT m.*, c.name AS channel_name,
    a.message_id AS ask_id, a.status AS ask_status, a.reply AS ask_reply, a.replied_at AS ask_replied_at,
    a.replied_via AS ask_replied_via, a.resume_outcome AS ask_resume_outcome,
    o.id AS out_id, o.state AS out_state, o.attempts AS out_attempts, o.next_attempt_at AS out_next_attempt_at,
    o.last_error_code AS out_error_code, o.last_error_message AS out_error_message,
    d.platform AS d_platform, d.chat_id AS d_chat_id, d.platform_message_id AS d_platform_message_id
  FROM harness_messages m
  LEFT JOIN harness_channels c ON c.id = m.channel_id
  LEFT JOIN harness_asks a ON a.message_id = m.id
  LEFT JOIN harness_outbound o ON o.message_id = m.id
  LEFT JOIN harness_deliveries d ON d.message_id = m.id`;

// The notification center's status column, as SQL, so a filter on it pages correctly.
const DISPLAY_STATUS_SQL = `CASE
    WHEN m.kind = 'NOTIFY' THEN 'NOTIFY_ONLY'
    WHEN a.status IN ('OPEN', 'ANSWERED', 'SUPERSEDED') THEN a.status
    ELSE m.status END`;

/** Messages, asks and outbox rows: every write that must hold together is one transaction here. */
export class MessageStore {
  private readonly sql: PreparedStatements;
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
    this.sql = new PreparedStatements(db);
  }

  /** The task, its project and workspace, and its live execution, in one read. */
  ownerOf(taskId: number): Ownership {
    const row = this.sql
      .get(
        `SELECT t.id AS task_id, t.project_id, p.workspace_id,
           (SELECT e.id FROM executions e WHERE e.task_id = t.id AND e.status IN ('RUNNING', 'PAUSED')) AS execution_id
         FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = ?`,
      )
      .get(taskId) as { task_id: number; project_id: number; workspace_id: number; execution_id: number | null } | undefined;
    if (!row) throw new SvcError({ code: 'task_not_found', message: `no task with id ${taskId}`, details: { id: taskId } });
    return { taskId: row.task_id, projectId: row.project_id, workspaceId: row.workspace_id, executionId: row.execution_id };
  }

  /** ask_human: the question, registered and OPEN (an older OPEN ask of the task is superseded). */
  registerAsk(owner: Ownership, body: string, park: () => void): { messageId: number; askId: number } {
    return transaction(this.db, () => {
      const messageId = this.insertMessage('ASK', owner, body, 'LOCAL', true);
      this.insertAsk(messageId, owner, 'INTENT');
      this.openAsk(messageId, owner.taskId);
      park();
      return { messageId, askId: messageId };
    });
  }

  registerNotify(owner: Ownership, body: string): number {
    return this.insertMessage('NOTIFY', owner, body, 'LOCAL', false);
  }

  /** push_to_human: message, outbox row and (when a reply is expected) the ask intent, all or nothing. */
  enqueuePush(input: PushInput): { messageId: number; outboxId: string } {
    return transaction(this.db, () => this.writePush(input));
  }

  /**
   * The rows of enqueuePush, inside the caller's own transaction (one that also made the reads
   * deciding them): no savepoint of its own. `rows` is how many rows its statements wrote.
   */
  writePush(input: PushInput): { messageId: number; outboxId: string; rows: number } {
    if (!this.db.inTransaction) throw new Error('MessageStore.writePush() runs inside a transaction()');
    // One clock reading for the three rows.
    const now = this.now();
    const at = now.toISOString();
    const messageId = this.insertMessage(
      input.kind,
      input,
      input.body,
      'PENDING_DELIVERY',
      input.expectReply,
      { channelId: input.channelId, to: input.to, threadId: input.threadId },
      at,
    );
    const outboxId = timeOrderedId(now.getTime());
    let rows =
      1 +
      this.sql
        .get(
          `INSERT INTO harness_outbound (message_id, id, gateway_id, state, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, 'PENDING', 0, ?, ?, ?)`,
        )
        .run(messageId, outboxId, input.gatewayId, now.getTime(), at, at).changes;
    if (input.expectReply) rows += this.insertAsk(messageId, input, 'INTENT', at);
    return { messageId, outboxId, rows };
  }

  /** Turns an ask (keyed by its message id) into the task's one OPEN ask (call inside a transaction). */
  openAsk(askId: number, taskId: number): void {
    const at = this.now().toISOString();
    this.sql.get("UPDATE harness_asks SET status = 'SUPERSEDED' WHERE task_id = ? AND status = 'OPEN' AND message_id <> ?").run(taskId, askId);
    this.sql.get("UPDATE harness_asks SET status = 'OPEN', opened_at = ? WHERE message_id = ? AND status = 'INTENT'").run(at, askId);
  }

  askIntentOf(messageId: number): { id: number; taskId: number } | undefined {
    const row = this.sql.get("SELECT message_id, task_id FROM harness_asks WHERE message_id = ? AND status = 'INTENT'").get(messageId) as
      | { message_id: number; task_id: number }
      | undefined;
    return row ? { id: row.message_id, taskId: row.task_id } : undefined;
  }

  openAskOf(taskId: number): OpenAsk | undefined {
    const row = this.sql.get("SELECT message_id, task_id, execution_id FROM harness_asks WHERE task_id = ? AND status = 'OPEN'").get(taskId) as
      | { message_id: number; task_id: number; execution_id: number | null }
      | undefined;
    return row ? { id: row.message_id, messageId: row.message_id, taskId: row.task_id, executionId: row.execution_id } : undefined;
  }

  /** The task of a message (for a reply addressed by message id). */
  taskOfMessage(messageId: number): number | null {
    const row = this.sql.get('SELECT task_id FROM harness_messages WHERE id = ?').get(messageId) as { task_id: number | null } | undefined;
    if (!row) throw notFound(messageId);
    return row.task_id;
  }

  /** Answers the OPEN ask; false when another reply got there first (the caller says `no_pending`). */
  answer(askId: number, reply: string, via: string): boolean {
    const result = this.sql
      .get("UPDATE harness_asks SET status = 'ANSWERED', reply = ?, replied_at = ?, replied_via = ? WHERE message_id = ? AND status = 'OPEN'")
      .run(reply, this.now().toISOString(), via, askId);
    return result.changes === 1;
  }

  /**
   * Answers the OPEN ask and records, in the same statement, that the reply still has to be typed
   * into the task (`resume_outcome` = `delivering`): a service that dies before typing it finds it
   * in `undeliveredAnswers()` when it starts again. False when another reply got there first.
   */
  answerForDelivery(askId: number, reply: string, via: string): boolean {
    const result = this.sql
      .get("UPDATE harness_asks SET status = 'ANSWERED', reply = ?, replied_at = ?, replied_via = ?, resume_outcome = 'delivering' WHERE message_id = ? AND status = 'OPEN'")
      .run(reply, this.now().toISOString(), via, askId);
    return result.changes === 1;
  }

  /** Answers whose typing into the task a dead service left undone, oldest first. */
  undeliveredAnswers(): { id: number; taskId: number; reply: string }[] {
    const rows = this.sql
      .get("SELECT message_id, task_id, reply FROM harness_asks WHERE status = 'ANSWERED' AND resume_outcome = 'delivering' ORDER BY replied_at, message_id")
      .all() as { message_id: number; task_id: number; reply: string }[];
    return rows.map((row) => ({ id: row.message_id, taskId: row.task_id, reply: row.reply }));
  }

  /** Undoes `answer` when the reply could not reach the task: the ask waits again, nothing is lost. */
  reopen(askId: number): void {
    this.sql
      .get("UPDATE harness_asks SET status = 'OPEN', reply = NULL, replied_at = NULL, replied_via = NULL, resume_outcome = NULL WHERE message_id = ? AND status = 'ANSWERED'")
      .run(askId);
  }

  recordResumeOutcome(askId: number, outcome: string): void {
    this.sql.get('UPDATE harness_asks SET resume_outcome = ? WHERE message_id = ?').run(outcome, askId);
  }

  /** A person's explicit resend of an unverified or failed message: due now, same idempotency key. */
  resend(messageId: number): HarnessMessage {
    transaction(this.db, () => {
      const current = this.get(messageId);
      if (!current.outbound || (current.deliveryStatus !== 'SENT_UNVERIFIED' && current.deliveryStatus !== 'FAILED')) {
        throw new SvcError({
          code: 'not_resendable',
          message: `message ${messageId} is ${current.deliveryStatus}; only SENT_UNVERIFIED or FAILED messages can be sent again`,
          details: { messageId, status: current.deliveryStatus },
        });
      }
      const at = this.now();
      this.sql
        .get("UPDATE harness_outbound SET state = 'PENDING', next_attempt_at = ?, updated_at = ? WHERE message_id = ? AND state IN ('SENT_UNVERIFIED', 'FAILED')")
        .run(at.getTime(), at.toISOString(), messageId);
      this.sql.get("UPDATE harness_messages SET status = 'PENDING_DELIVERY', updated_at = ? WHERE id = ?").run(at.toISOString(), messageId);
    });
    return this.get(messageId);
  }

  get(id: number): HarnessMessage {
    const row = this.sql.get(`${SELECT} WHERE m.id = ?`).get(id) as MessageRow | undefined;
    if (!row) throw notFound(id);
    return presentMessageRow(row);
  }

  list(filter: MessageFilter): { items: HarnessMessage[]; nextBefore: number | null } {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const add = (sql: string, value: SqlValue | undefined) => {
      if (value === undefined) return;
      where.push(sql);
      params.push(value);
    };
    add('m.workspace_id = ?', filter.workspaceId);
    add('m.project_id = ?', filter.projectId);
    add('m.task_id = ?', filter.taskId);
    add(`(${DISPLAY_STATUS_SQL}) = ?`, filter.status);
    add('m.id < ?', filter.before);
    const rows = this.sql
      .get(`${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY m.id DESC LIMIT ?`)
      .all(...params, filter.limit + 1) as MessageRow[];
    const items = rows.slice(0, filter.limit).map(presentMessageRow);
    return { items, nextBefore: rows.length > filter.limit ? items[items.length - 1]!.id : null };
  }

  private insertMessage(
    kind: 'ASK' | 'NOTIFY' | 'PUSH' | 'FINAL_RESULT',
    owner: Ownership,
    body: string,
    status: 'LOCAL' | 'PENDING_DELIVERY',
    expectReply: boolean,
    target?: { channelId: number; to: string; threadId: string | null },
    at: string = this.now().toISOString(),
  ): number {
    const result = this.sql
      .get(
        `INSERT INTO harness_messages (kind, task_id, project_id, workspace_id, execution_id, body, status, expect_reply,
           channel_id, target_to, target_thread, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        kind,
        owner.taskId,
        owner.projectId,
        owner.workspaceId,
        owner.executionId,
        body,
        status,
        expectReply ? 1 : 0,
        target?.channelId ?? null,
        target?.to ?? null,
        target?.threadId ?? null,
        at,
        at,
      );
    return Number(result.lastInsertRowid);
  }

  /** The ask's row; returns the rows written (one). */
  private insertAsk(messageId: number, owner: Ownership, status: 'INTENT', at: string = this.now().toISOString()): number {
    return this.sql
      .get('INSERT INTO harness_asks (message_id, task_id, execution_id, status, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(messageId, owner.taskId, owner.executionId, status, at).changes;
  }
}

function notFound(id: number): SvcError {
  return new SvcError({ code: 'message_not_found', message: `no harness message with id ${id}`, details: { id } });
}
