import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '@svc-org/host/platform/db';
import { InboundRowSchema, type InboundRecord } from './inbound-record.js';

export interface InboundKey {
  platform: string;
  chatId: string;
  platformMessageId: string;
}

export interface NewInbound extends InboundKey {
  threadId: string | null;
  rootMessageId: string | null;
  senderId: string;
  channelId: number;
  kind: InboundRecord['kind'];
  request: InboundRecord['request'];
  text: string;
}

/** What a delivery of a platform message found: the row is this caller's to route, or someone else's. */
export type InboundClaim =
  | { claimed: true; inbound: InboundRecord }
  | { claimed: false; inbound: InboundRecord; status: 'in_progress' | 'already_processed' };

export const INBOUND_LEASE_MS = 60_000;

/**
 * `harness_gateway_inbound`. Deduplication is the table's unique key (platform, chat, message id):
 * the first delivery inserts and routes; any other reads the row. A row left ROUTING by a dead
 * process, or FAILED, is taken over by a conditional UPDATE once its lease has run out.
 */
export class InboundStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
  }

  claim(input: NewInbound, leaseMs = INBOUND_LEASE_MS): InboundClaim {
    const at = this.now();
    const inserted = this.db
      .prepare(
        `INSERT INTO harness_gateway_inbound (platform, chat_id, platform_message_id, thread_id, root_message_id, sender_id, channel_id,
           kind, request, text, state, attempts, lease_until, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ROUTING', 1, ?, ?, ?)
         ON CONFLICT (platform, chat_id, platform_message_id) DO NOTHING RETURNING id`,
      )
      .get(
        input.platform,
        input.chatId,
        input.platformMessageId,
        input.threadId,
        input.rootMessageId,
        input.senderId,
        input.channelId,
        input.kind,
        input.request,
        input.text,
        at.getTime() + leaseMs,
        at.toISOString(),
        at.toISOString(),
      ) as { id: number } | undefined;
    if (inserted) return { claimed: true, inbound: this.get(inserted.id) };
    const existing = this.find(input)!;
    const retaken = this.retake(existing.id, leaseMs);
    if (retaken) return { claimed: true, inbound: retaken };
    const current = this.get(existing.id);
    return { claimed: false, inbound: current, status: current.state === 'PROCESSED' ? 'already_processed' : 'in_progress' };
  }

  /** Takes over a FAILED row or one whose routing lease ran out (same row, one more attempt). */
  retake(id: number, leaseMs = INBOUND_LEASE_MS, extra: { kind?: InboundRecord['kind']; request?: InboundRecord['request'] } = {}): InboundRecord | undefined {
    const at = this.now();
    const row = this.db
      .prepare(
        `UPDATE harness_gateway_inbound SET state = 'ROUTING', attempts = attempts + 1, lease_until = ?, updated_at = ?,
           kind = COALESCE(?, kind), request = COALESCE(?, request)
         WHERE id = ? AND (state = 'FAILED' OR (state = 'ROUTING' AND lease_until < ?)) RETURNING id`,
      )
      .get(at.getTime() + leaseMs, at.toISOString(), extra.kind ?? null, extra.request ?? null, id, at.getTime()) as { id: number } | undefined;
    return row ? this.get(row.id) : undefined;
  }

  /**
   * continue_bound_task: turns a read-only `task_context` row (or a failed or expired continue) into
   * a claimed `continue`, in one statement so two continues of one message cannot both win.
   */
  upgradeToContinue(id: number, leaseMs = INBOUND_LEASE_MS): InboundRecord | undefined {
    const at = this.now();
    const row = this.db
      .prepare(
        `UPDATE harness_gateway_inbound SET kind = 'continue', request = 'continue', state = 'ROUTING', attempts = attempts + 1,
           lease_until = ?, updated_at = ?
         WHERE id = ? AND (kind = 'task_context' OR (kind = 'continue' AND (state = 'FAILED' OR (state = 'ROUTING' AND lease_until < ?))))
         RETURNING id`,
      )
      .get(at.getTime() + leaseMs, at.toISOString(), id, at.getTime()) as { id: number } | undefined;
    return row ? this.get(row.id) : undefined;
  }

  /** Stores a reply about a task as read-only context (resolve_gateway_task_context leaves this to continue). */
  storeTaskContext(input: NewInbound & { taskId: number; projectId: number }): InboundRecord {
    const at = this.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO harness_gateway_inbound (platform, chat_id, platform_message_id, thread_id, root_message_id, sender_id, channel_id,
           kind, request, text, state, attempts, project_id, task_id, created_at, updated_at, processed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'task_context', 'continue', ?, 'PROCESSED', 0, ?, ?, ?, ?, ?)
         ON CONFLICT (platform, chat_id, platform_message_id) DO NOTHING`,
      )
      .run(input.platform, input.chatId, input.platformMessageId, input.threadId, input.rootMessageId, input.senderId, input.channelId, input.text, input.projectId, input.taskId, at, at, at);
    return this.find(input)!;
  }

  processed(id: number, outcome: { projectId: number | null; taskId: number | null; conversationId: number | null; eventId: number | null; routedBy: string | null; result: string }): void {
    const at = this.now().toISOString();
    this.db
      .prepare(
        `UPDATE harness_gateway_inbound SET state = 'PROCESSED', lease_until = NULL, project_id = ?, task_id = ?, conversation_id = ?, event_id = ?,
           routed_by = ?, result = ?, last_error_code = NULL, last_error_message = NULL, updated_at = ?, processed_at = ? WHERE id = ?`,
      )
      .run(outcome.projectId, outcome.taskId, outcome.conversationId, outcome.eventId, outcome.routedBy, outcome.result, at, at, id);
  }

  failed(id: number, error: unknown): void {
    const code = SvcError.isInstance(error) ? error.code : 'internal';
    const message = error instanceof Error ? error.message.slice(0, 500) : 'routing failed';
    this.db
      .prepare("UPDATE harness_gateway_inbound SET state = 'FAILED', lease_until = NULL, last_error_code = ?, last_error_message = ?, updated_at = ? WHERE id = ?")
      .run(code, message, this.now().toISOString(), id);
  }

  /**
   * How far a continue's typing got into one execution: `injecting:<execution id>` before it types,
   * `entered:<execution id>` just before the Enter that submits it (a retry types only when that
   * Enter never went out).
   */
  markInjection(id: number, stage: 'injecting' | 'entered', executionId: number): void {
    this.db.prepare('UPDATE harness_gateway_inbound SET result = ? WHERE id = ?').run(`${stage}:${executionId}`, id);
  }

  setTask(id: number, taskId: number): void {
    this.db.prepare('UPDATE harness_gateway_inbound SET task_id = ?, updated_at = ? WHERE id = ?').run(taskId, this.now().toISOString(), id);
  }

  find(key: InboundKey): InboundRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM harness_gateway_inbound WHERE platform = ? AND chat_id = ? AND platform_message_id = ?')
      .get(key.platform, key.chatId, key.platformMessageId);
    return row ? InboundRowSchema.parse(row) : undefined;
  }

  get(id: number): InboundRecord {
    const row = this.db.prepare('SELECT * FROM harness_gateway_inbound WHERE id = ?').get(id);
    if (!row) throw new SvcError({ code: 'inbound_not_found', message: `no gateway inbound ${id}`, details: { inboundId: id } });
    return InboundRowSchema.parse(row);
  }

  /** The inbound a task was created for (GATEWAY_WORK_REQUEST confirmed by confirm_gateway_task_created). */
  forTask(taskId: number): InboundRecord | undefined {
    const row = this.db.prepare("SELECT * FROM harness_gateway_inbound WHERE task_id = ? AND request = 'work' ORDER BY id DESC LIMIT 1").get(taskId);
    return row ? InboundRowSchema.parse(row) : undefined;
  }

  counts(): Record<string, number> {
    const rows = this.db.prepare('SELECT state, COUNT(*) AS n FROM harness_gateway_inbound GROUP BY state').all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
  }
}
