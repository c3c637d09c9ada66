import { SvcError, type UnsupportedAttachment } from '@svc-org/ai-sdk';
import { transaction, type Db, type SqlValue } from '../../platform/db/index.js';
import type { EventStore } from '../../platform/events/index.js';
import { executionListFilterSchema, ExecutionRowSchema, type ExecutionListFilter, type ExecutionRecord } from './execution-record.js';
import type { EndReason, ExecutionOutcome } from './execution-status.js';
import { parseInput } from '../../platform/errors/index.js';

export interface NewExecution {
  taskId: number;
  connectionId: number | null;
  connectionName: string;
  providerId: string;
  mode: 'fresh' | 'resume';
  sessionId: string | null;
  /** What the provider could not attach to this run (task terminal wiring). */
  unsupportedAttachments?: UnsupportedAttachment[];
}

export interface ExecutionEnd {
  status: 'COMPLETED' | 'FAILED';
  endReason: EndReason;
  /** Derived from the status and reason when absent (see outcomeOf). */
  outcome?: ExecutionOutcome;
  /** Whether the task's worktree held changes at the end; absent when not known. */
  leftChanges?: boolean;
  exitCode?: number | null;
  exitSignal?: number | null;
  error?: { code: string; message: string };
}

/** The `executions` table. The database refuses a second live (RUNNING/PAUSED) execution per task. */
export class ExecutionStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly events?: EventStore,
  ) {}

  list(filter: ExecutionListFilter = {}): ExecutionRecord[] {
    const value = parseInput(executionListFilterSchema(), filter, 'execution filter');
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (value.taskId !== undefined) {
      where.push('task_id = ?');
      params.push(value.taskId);
    }
    if (value.status !== undefined) {
      where.push('status = ?');
      params.push(value.status);
    }
    const sql = `SELECT * FROM executions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return this.db.prepare(sql).all(...params, value.limit).map((row) => ExecutionRowSchema.parse(row));
  }

  get(id: number): ExecutionRecord {
    const row = this.db.prepare('SELECT * FROM executions WHERE id = ?').get(id);
    if (!row) throw new SvcError({ code: 'execution_not_found', message: `no execution with id ${id}`, details: { id } });
    return ExecutionRowSchema.parse(row);
  }

  latestForTask(taskId: number): ExecutionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM executions WHERE task_id = ? ORDER BY id DESC LIMIT 1').get(taskId);
    return row ? ExecutionRowSchema.parse(row) : undefined;
  }

  /** The latest execution of each of these tasks that ever ran, by task id, in one read. */
  latestForTasks(taskIds: readonly number[]): Map<number, ExecutionRecord> {
    const latest = new Map<number, ExecutionRecord>();
    if (taskIds.length === 1) {
      const one = this.latestForTask(taskIds[0]!);
      if (one) latest.set(one.taskId, one);
      return latest;
    }
    if (taskIds.length === 0) return latest;
    const rows = this.db
      .prepare('SELECT * FROM executions WHERE id IN (SELECT MAX(id) FROM executions WHERE task_id IN (SELECT value FROM json_each(?)) GROUP BY task_id)')
      .all(JSON.stringify(taskIds));
    for (const row of rows) {
      const execution = ExecutionRowSchema.parse(row);
      latest.set(execution.taskId, execution);
    }
    return latest;
  }

  /** The most recent execution of the task that recorded the CLI's session id. */
  latestSessionForTask(taskId: number): ExecutionRecord | undefined {
    const row = this.db.prepare('SELECT * FROM executions WHERE task_id = ? AND session_id IS NOT NULL ORDER BY id DESC LIMIT 1').get(taskId);
    return row ? ExecutionRowSchema.parse(row) : undefined;
  }

  liveForTask(taskId: number): ExecutionRecord | undefined {
    const row = this.db.prepare("SELECT * FROM executions WHERE task_id = ? AND status IN ('RUNNING', 'PAUSED')").get(taskId);
    return row ? ExecutionRowSchema.parse(row) : undefined;
  }

  live(): ExecutionRecord[] {
    return this.db.prepare("SELECT * FROM executions WHERE status IN ('RUNNING', 'PAUSED') ORDER BY id").all().map((row) => ExecutionRowSchema.parse(row));
  }

  /** Stores the hash of the credential minted for a live execution; its end revokes it (migration 0012). */
  storeCredential(executionId: number, credentialHash: string): void {
    this.db.prepare('INSERT INTO execution_credentials (execution_id, credential_hash, created_at) VALUES (?, ?, ?)').run(executionId, credentialHash, this.now().toISOString());
  }

  /** Inserts a RUNNING execution; `execution_running` when the task already has a live one. */
  create(input: NewExecution): ExecutionRecord {
    try {
      const result = this.db
        .prepare(
          `INSERT INTO executions (task_id, connection_id, connection_name, provider_id, mode, status, session_id, started_at, unsupported_attachments)
           VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?)`,
        )
        .run(
          input.taskId,
          input.connectionId,
          input.connectionName,
          input.providerId,
          input.mode,
          input.sessionId,
          this.now().toISOString(),
          JSON.stringify(input.unsupportedAttachments ?? []),
        );
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw this.alreadyRunning(input.taskId);
      throw error;
    }
  }

  alreadyRunning(taskId: number): SvcError {
    const live = this.liveForTask(taskId);
    return new SvcError({
      code: 'execution_running',
      message: `task ${taskId} already has a ${live?.status ?? 'live'} execution${live ? ` (${live.id})` : ''}; stop it first`,
      details: { taskId, ...(live ? { executionId: live.id, status: live.status } : {}) },
    });
  }

  setProcess(id: number, pid: number, pidStartTime: string | null): void {
    this.db.prepare('UPDATE executions SET pid = ?, pid_start_time = ? WHERE id = ?').run(pid, pidStartTime, id);
  }

  /** The CLI's Stop hook: it waits at its own prompt now (a live execution only). */
  markWaiting(id: number): void {
    this.db.prepare("UPDATE executions SET waiting_since = ? WHERE id = ? AND status = 'RUNNING'").run(this.now().toISOString(), id);
  }

  /** A message was submitted to the CLI: its turn runs again. */
  clearWaiting(id: number): void {
    this.db.prepare('UPDATE executions SET waiting_since = NULL WHERE id = ?').run(id);
  }

  setSessionId(id: number, sessionId: string): void {
    this.db.prepare('UPDATE executions SET session_id = ? WHERE id = ?').run(sessionId, id);
  }

  /** RUNNING ⇄ PAUSED; anything else is `invalid_execution_transition`. */
  setLiveStatus(id: number, status: 'RUNNING' | 'PAUSED'): ExecutionRecord {
    const from = status === 'PAUSED' ? 'RUNNING' : 'PAUSED';
    const result = this.db.prepare('UPDATE executions SET status = ? WHERE id = ? AND status = ?').run(status, id, from);
    if (result.changes === 0) {
      const current = this.get(id);
      if (current.status === status) return current;
      throw new SvcError({
        code: 'invalid_execution_transition',
        message: `execution ${id} is ${current.status}; only a ${from} execution can become ${status}`,
        details: { id, from: current.status, to: status },
      });
    }
    return this.get(id);
  }

  /** Ends a live execution once; a second end (exit after a restart sweep) changes nothing. */
  finish(id: number, end: ExecutionEnd): ExecutionRecord {
    return transaction(this.db, () => {
      const result = this.db
        .prepare(
          `UPDATE executions SET status = ?, end_reason = ?, outcome = ?, left_changes = ?, waiting_since = NULL, exit_code = ?, exit_signal = ?,
             error_code = ?, error_message = ?, ended_at = ?
           WHERE id = ? AND status IN ('RUNNING', 'PAUSED')`,
        )
        .run(
          end.status,
          end.endReason,
          end.outcome ?? outcomeOf(end.status, end.endReason),
          end.leftChanges === undefined ? null : end.leftChanges ? 1 : 0,
          end.exitCode ?? null,
          end.exitSignal ?? null,
          end.error?.code ?? null,
          end.error?.message ?? null,
          this.now().toISOString(),
          id,
        );
      const ended = this.get(id);
      // In the same transaction as the end itself: no end without its event, no event without the end.
      if (result.changes > 0) {
        this.events?.append({
          type: 'execution_ended',
          dedupKey: `execution_ended:${id}`,
          payload: { executionId: id, taskId: ended.taskId, status: ended.status, endReason: ended.endReason, outcome: ended.outcome, exitCode: ended.exitCode, exitSignal: ended.exitSignal },
        });
      }
      return ended;
    });
  }
}

/**
 * The outcome of an end: a person's Stop and the keepalive are `stopped`; a shutdown or restart of
 * the service `interrupted`; otherwise the status says (COMPLETED → completed, FAILED → failed).
 */
export function outcomeOf(status: 'COMPLETED' | 'FAILED', endReason: EndReason): ExecutionOutcome {
  if (endReason === 'stopped' || endReason === 'keepalive') return 'stopped';
  if (endReason === 'service_shutdown' || endReason === 'service_restart') return 'interrupted';
  return status === 'COMPLETED' ? 'completed' : 'failed';
}
