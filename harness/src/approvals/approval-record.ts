import { z } from 'zod';

export const APPROVAL_STATUSES = ['OPEN', 'ALLOWED', 'DENIED'] as const;
/** What a person answers: once, never (with a reason the agent reads), or for the rest of the task. */
export const APPROVAL_ANSWERS = ['allow_once', 'deny', 'allow_for_task'] as const;
/** What an unanswered request becomes after the policy's wait. */
export const APPROVAL_TIMEOUT_ACTIONS = ['deny', 'allow_listed', 'escalate', 'stop'] as const;

export type ApprovalAnswer = (typeof APPROVAL_ANSWERS)[number];
export type ApprovalTimeoutAction = (typeof APPROVAL_TIMEOUT_ACTIONS)[number];

export const ApprovalSchema = z.object({
  id: z.number().int(),
  taskId: z.number().int(),
  executionId: z.number().int().nullable(),
  cli: z.string(),
  toolName: z.string(),
  callHash: z.string(),
  cwd: z.string().nullable(),
  shown: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  /** A person's answer, `rule` (an allow-for-task rule let it through), or `timeout_deny` / `timeout_allow` / `timeout_stop`. */
  answer: z.string().nullable(),
  reason: z.string().nullable(),
  answeredBy: z.string().nullable(),
  answeredVia: z.string().nullable(),
  answeredAt: z.string().nullable(),
  parked: z.boolean(),
  delivery: z.string().nullable(),
  escalatedAt: z.string().nullable(),
  messageId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type Approval = z.infer<typeof ApprovalSchema>;

export interface ApprovalRow {
  id: number;
  task_id: number;
  execution_id: number | null;
  cli: string;
  tool_name: string;
  call_hash: string;
  cwd: string | null;
  shown: string;
  status: Approval['status'];
  answer: string | null;
  reason: string | null;
  answered_by: string | null;
  answered_via: string | null;
  answered_at: string | null;
  parked: number;
  delivery: string | null;
  escalated_at: string | null;
  message_id: number | null;
  created_at: string;
  created_ms: number;
}

export function presentApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    taskId: row.task_id,
    executionId: row.execution_id,
    cli: row.cli,
    toolName: row.tool_name,
    callHash: row.call_hash,
    cwd: row.cwd,
    shown: row.shown,
    status: row.status,
    answer: row.answer,
    reason: row.reason,
    answeredBy: row.answered_by,
    answeredVia: row.answered_via,
    answeredAt: row.answered_at,
    parked: row.parked === 1,
    delivery: row.delivery,
    escalatedAt: row.escalated_at,
    messageId: row.message_id,
    createdAt: row.created_at,
  };
}
