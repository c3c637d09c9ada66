import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db } from '@svc-org/host/platform/db';
import { PreparedStatements } from '../gateways/prepared-statements.js';
import { presentApproval, type Approval, type ApprovalAnswer, type ApprovalRow, type ApprovalTimeoutAction } from './approval-record.js';

export interface NewApproval {
  taskId: number;
  executionId: number | null;
  cli: string;
  toolName: string;
  callHash: string;
  cwd: string | null;
  shown: string;
}

export interface GivenAnswer {
  answer: ApprovalAnswer | 'rule' | 'timeout_deny' | 'timeout_allow' | 'timeout_stop';
  reason: string | null;
  by: string;
  via: string;
}

export interface ApprovalPolicy {
  action: ApprovalTimeoutAction;
  afterMs: number;
  stopAfterMs: number;
  allowedTools: string[];
  /** Where it was set: the task's own, its project's, or the service's default. */
  source: 'task' | 'project' | 'default';
}

export interface ApprovalCounts {
  total: number;
  open: number;
  allowed: number;
  denied: number;
}

const ALLOWED_ANSWERS = new Set(['allow_once', 'allow_for_task', 'timeout_allow']);

/** Approval records, rules and timeout policies: every write that must hold together is one statement or one transaction. */
export class ApprovalStore {
  private readonly sql: PreparedStatements;
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
    this.sql = new PreparedStatements(db);
  }

  /** Whether an allow-for-task rule covers this exact call. */
  hasRule(taskId: number, callHash: string): boolean {
    return this.sql.get('SELECT 1 AS found FROM harness_approval_rules WHERE task_id = ? AND call_hash = ?').get(taskId, callHash) !== undefined;
  }

  /**
   * The request, written before anyone is asked: the task's OPEN record of the same call when one
   * waits already (a retried call waits on it), a new OPEN one otherwise.
   */
  open(input: NewApproval): { approval: Approval; created: boolean } {
    return transaction(this.db, () => {
      const waiting = this.sql.get("SELECT * FROM harness_approvals WHERE task_id = ? AND call_hash = ? AND status = 'OPEN'").get(input.taskId, input.callHash) as ApprovalRow | undefined;
      if (waiting) return { approval: presentApproval(waiting), created: false };
      return { approval: this.insert(input, 'OPEN', null), created: true };
    });
  }

  /** A call an allow-for-task rule let through, recorded for the audit (nobody was asked). */
  recordRuleMatch(input: NewApproval): Approval {
    return this.insert(input, 'ALLOWED', { answer: 'rule', reason: null, by: 'rule', via: 'rule' });
  }

  /**
   * The retried call of a parked request answered "allow once": it goes through, once. True when
   * such an answer was waiting for it (and is now spent).
   */
  spendParkedAllow(taskId: number, callHash: string): Approval | undefined {
    const row = this.sql
      .get(
        `UPDATE harness_approvals SET used_at = ? WHERE id = (SELECT id FROM harness_approvals WHERE task_id = ? AND call_hash = ?
           AND status = 'ALLOWED' AND answer IN ('allow_once', 'timeout_allow') AND parked = 1 AND used_at IS NULL ORDER BY id LIMIT 1) RETURNING *`,
      )
      .get(this.now().toISOString(), taskId, callHash) as ApprovalRow | undefined;
    return row ? presentApproval(row) : undefined;
  }

  /**
   * The first answer wins: one conditional UPDATE on the OPEN record; undefined when another answer
   * got there first. A parked request's answer also records, in the same statement, that it still
   * has to be typed into the terminal; an allow-for-task answer writes its rule in the same
   * transaction.
   */
  answer(id: number, given: GivenAnswer): Approval | undefined {
    return transaction(this.db, () => {
      const at = this.now().toISOString();
      const row = this.sql
        .get(
          `UPDATE harness_approvals SET status = ?, answer = ?, reason = ?, answered_by = ?, answered_via = ?, answered_at = ?,
             delivery = CASE WHEN parked = 1 THEN 'delivering' ELSE NULL END, used_at = CASE WHEN parked = 1 THEN NULL ELSE ? END
           WHERE id = ? AND status = 'OPEN' RETURNING *`,
        )
        .get(ALLOWED_ANSWERS.has(given.answer) ? 'ALLOWED' : 'DENIED', given.answer, given.reason, given.by, given.via, at, at, id) as ApprovalRow | undefined;
      if (!row) return undefined;
      if (given.answer === 'allow_for_task') {
        this.sql
          .get('INSERT INTO harness_approval_rules (task_id, call_hash, tool_name, approval_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
          .run(row.task_id, row.call_hash, row.tool_name, row.id, at);
      }
      return presentApproval(row);
    });
  }

  /** The hook stopped waiting: the CLI's turn ends and the outcome is typed in later. False when it was answered meanwhile. */
  park(id: number): boolean {
    return this.sql.get("UPDATE harness_approvals SET parked = 1 WHERE id = ? AND status = 'OPEN'").run(id).changes === 1;
  }

  attachMessage(id: number, messageId: number): void {
    this.sql.get('UPDATE harness_approvals SET message_id = ? WHERE id = ?').run(messageId, id);
  }

  /** The request relayed as this harness message (a chat reply to it answers the request). */
  byMessage(messageId: number): Approval | undefined {
    const row = this.sql.get('SELECT * FROM harness_approvals WHERE message_id = ?').get(messageId) as ApprovalRow | undefined;
    return row ? presentApproval(row) : undefined;
  }

  markEscalated(id: number): boolean {
    return this.sql.get("UPDATE harness_approvals SET escalated_at = ? WHERE id = ? AND status = 'OPEN' AND escalated_at IS NULL").run(this.now().toISOString(), id).changes === 1;
  }

  recordDelivery(id: number, outcome: 'delivered' | 'failed' | 'skipped'): void {
    this.sql.get('UPDATE harness_approvals SET delivery = ? WHERE id = ?').run(outcome, id);
  }

  /** Answers of parked requests a stopped service left untyped, oldest answer first. */
  undelivered(): Approval[] {
    return (this.sql.get("SELECT * FROM harness_approvals WHERE delivery = 'delivering' ORDER BY answered_at, id").all() as ApprovalRow[]).map(presentApproval);
  }

  /** OPEN requests created at or before `ms` (epoch), oldest first: the timeout policy's candidates. */
  openSince(ms: number): Approval[] {
    return (this.sql.get("SELECT * FROM harness_approvals WHERE status = 'OPEN' AND created_ms <= ? ORDER BY created_ms, id").all(ms) as ApprovalRow[]).map(presentApproval);
  }

  get(id: number): Approval {
    const row = this.sql.get('SELECT * FROM harness_approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
    if (!row) throw notFound(id);
    return presentApproval(row);
  }

  taskOf(id: number): number | undefined {
    const row = this.sql.get('SELECT task_id FROM harness_approvals WHERE id = ?').get(id) as { task_id: number } | undefined;
    return row?.task_id;
  }

  /** A task's requests, newest first. */
  listForTask(taskId: number, limit: number): Approval[] {
    return (this.sql.get('SELECT * FROM harness_approvals WHERE task_id = ? ORDER BY id DESC LIMIT ?').all(taskId, limit) as ApprovalRow[]).map(presentApproval);
  }

  /** Every OPEN request, oldest first. */
  listOpen(limit: number): Approval[] {
    return (this.sql.get("SELECT * FROM harness_approvals WHERE status = 'OPEN' ORDER BY id LIMIT ?").all(limit) as ApprovalRow[]).map(presentApproval);
  }

  counts(taskId: number): ApprovalCounts {
    const row = this.sql
      .get(
        `SELECT COUNT(*) AS total, COALESCE(SUM(status = 'OPEN'), 0) AS open, COALESCE(SUM(status = 'ALLOWED'), 0) AS allowed,
           COALESCE(SUM(status = 'DENIED'), 0) AS denied FROM harness_approvals WHERE task_id = ?`,
      )
      .get(taskId) as ApprovalCounts;
    return { total: Number(row.total), open: Number(row.open), allowed: Number(row.allowed), denied: Number(row.denied) };
  }

  /** The number of OPEN requests of a task: a task with one needs a person. */
  openCount(taskId: number): number {
    const row = this.sql.get("SELECT COUNT(*) AS n FROM harness_approvals WHERE task_id = ? AND status = 'OPEN'").get(taskId) as { n: number };
    return Number(row.n);
  }

  setPolicy(scope: 'task' | 'project', scopeId: number, policy: Omit<ApprovalPolicy, 'source'>): void {
    this.sql
      .get(
        `INSERT INTO harness_approval_policies (scope, scope_id, action, after_ms, stop_after_ms, allowed_tools, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (scope, scope_id) DO UPDATE SET action = excluded.action, after_ms = excluded.after_ms, stop_after_ms = excluded.stop_after_ms,
           allowed_tools = excluded.allowed_tools, updated_at = excluded.updated_at`,
      )
      .run(scope, scopeId, policy.action, policy.afterMs, policy.stopAfterMs, JSON.stringify(policy.allowedTools), this.now().toISOString());
  }

  /** The task's policy, else its project's, else `fallback`. */
  policyFor(taskId: number, fallback: Omit<ApprovalPolicy, 'source'>): ApprovalPolicy {
    const row = this.sql
      .get(
        `SELECT p.scope, p.action, p.after_ms, p.stop_after_ms, p.allowed_tools FROM harness_approval_policies p JOIN tasks t ON t.id = ?
         WHERE (p.scope = 'task' AND p.scope_id = t.id) OR (p.scope = 'project' AND p.scope_id = t.project_id)
         ORDER BY CASE p.scope WHEN 'task' THEN 0 ELSE 1 END LIMIT 1`,
      )
      .get(taskId) as { scope: 'task' | 'project'; action: ApprovalTimeoutAction; after_ms: number; stop_after_ms: number; allowed_tools: string } | undefined;
    if (!row) return { ...fallback, source: 'default' };
    return { action: row.action, afterMs: row.after_ms, stopAfterMs: row.stop_after_ms, allowedTools: JSON.parse(row.allowed_tools) as string[], source: row.scope };
  }

  private insert(input: NewApproval, status: 'OPEN' | 'ALLOWED', given: GivenAnswer | null): Approval {
    const at = this.now();
    const row = this.sql
      .get(
        `INSERT INTO harness_approvals (task_id, execution_id, cli, tool_name, call_hash, cwd, shown, status, answer, reason, answered_by, answered_via,
           answered_at, used_at, created_at, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        input.taskId,
        input.executionId,
        input.cli,
        input.toolName,
        input.callHash,
        input.cwd,
        input.shown,
        status,
        given?.answer ?? null,
        given?.reason ?? null,
        given?.by ?? null,
        given?.via ?? null,
        given ? at.toISOString() : null,
        given ? at.toISOString() : null,
        at.toISOString(),
        at.getTime(),
      ) as ApprovalRow;
    return presentApproval(row);
  }
}

function notFound(id: number): SvcError {
  return new SvcError({ code: 'approval_not_found', message: `no approval request with id ${id}`, details: { id, fix: 'list them with svc task approvals <task id>' } });
}
