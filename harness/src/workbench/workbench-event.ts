import { z } from 'zod';

export const WORKBENCH_EVENT_KINDS = ['CHILD_TURN_ENDED', 'EXECUTION_FAILED', 'EXECUTION_COMPLETED', 'GATEWAY_DISCUSSION_REQUEST', 'GATEWAY_WORK_REQUEST', 'CAPABILITY_JOB_COMPLETED', 'TASKS_OVERLAP', 'TASK_CONFLICTS_WITH_BASE'] as const;
export type WorkbenchEventKind = (typeof WORKBENCH_EVENT_KINDS)[number];

export const WorkbenchEventRowSchema = z
  .object({
    id: z.number(),
    parent_task_id: z.number(),
    kind: z.enum(WORKBENCH_EVENT_KINDS),
    priority: z.enum(['high', 'normal']),
    dedup_key: z.string(),
    execution_review_key: z.string().nullable(),
    source_task_id: z.number().nullable(),
    execution_id: z.number().nullable(),
    inbound_id: z.number().nullable(),
    payload: z.string().transform((text) => JSON.parse(text) as unknown),
    state: z.enum(['PENDING', 'BATCHED']),
    batch_id: z.number().nullable(),
    created_at: z.string(),
  })
  .transform((row) => ({
    id: row.id,
    parentTaskId: row.parent_task_id,
    kind: row.kind,
    priority: row.priority,
    dedupKey: row.dedup_key,
    executionReviewKey: row.execution_review_key,
    sourceTaskId: row.source_task_id,
    executionId: row.execution_id,
    inboundId: row.inbound_id,
    payload: row.payload,
    state: row.state,
    batchId: row.batch_id,
    createdAt: row.created_at,
  }));

/** A WorkbenchEvent: something the parent task must review. Its payload is never modified. */
export type WorkbenchEvent = z.output<typeof WorkbenchEventRowSchema>;

export interface NewWorkbenchEvent {
  parentTaskId: number;
  kind: WorkbenchEventKind;
  priority: 'high' | 'normal';
  dedupKey: string;
  executionReviewKey?: string | null;
  sourceTaskId?: number | null;
  executionId?: number | null;
  inboundId?: number | null;
  payload: unknown;
}
