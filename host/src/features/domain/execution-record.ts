import { UnsupportedAttachmentSchema } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { END_REASONS, EXECUTION_OUTCOMES, EXECUTION_STATUSES } from './execution-status.js';
import { builtOnFirstUse } from './built-on-first-use.js';
import { spelledEnum } from './spelled-enum.js';

const unsupportedAttachmentsSchema = builtOnFirstUse(() => z.array(UnsupportedAttachmentSchema));

// Built at its first parse (z.lazy): a command that reads no execution row never constructs it.
export const ExecutionRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      task_id: z.number(),
      connection_id: z.number().nullable(),
      connection_name: z.string(),
      provider_id: z.string(),
      mode: z.enum(['fresh', 'resume']),
      status: z.enum(EXECUTION_STATUSES),
      session_id: z.string().nullable(),
      pid: z.number().nullable(),
      pid_start_time: z.string().nullable(),
      exit_code: z.number().nullable(),
      exit_signal: z.number().nullable(),
      end_reason: z.enum(END_REASONS).nullable(),
      outcome: z.enum(EXECUTION_OUTCOMES).nullable(),
      waiting_since: z.string().nullable(),
      left_changes: z.number().nullable(),
      error_code: z.string().nullable(),
      error_message: z.string().nullable(),
      started_at: z.string(),
      ended_at: z.string().nullable(),
      unsupported_attachments: z.string().transform((text) => unsupportedAttachmentsSchema().parse(JSON.parse(text))),
    })
    .transform((row) => ({
      id: row.id,
      taskId: row.task_id,
      connectionId: row.connection_id,
      connectionName: row.connection_name,
      providerId: row.provider_id,
      mode: row.mode,
      status: row.status,
      sessionId: row.session_id,
      pid: row.pid,
      pidStartTime: row.pid_start_time,
      exitCode: row.exit_code,
      exitSignal: row.exit_signal,
      endReason: row.end_reason,
      outcome: row.outcome,
      /** The CLI waits at its own prompt since then (its Stop hook said so); null while a turn runs or it ended. */
      waitingSince: row.waiting_since,
      /** Whether its task's worktree held changes when it ended; null when not known. */
      leftChanges: row.left_changes === null ? null : row.left_changes === 1,
      error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      /** Task terminal wiring the provider could not apply to this run (e.g. hooks a CLI takes only from its settings). */
      unsupportedAttachments: row.unsupported_attachments,
    })),
);

export type ExecutionRecord = z.output<typeof ExecutionRowSchema>;

/** What a list of executions is filtered by (built at its first use). */
export const executionListFilterSchema = builtOnFirstUse(() =>
  z
    .object({
      taskId: z.coerce.number().int().positive().optional(),
      status: spelledEnum(EXECUTION_STATUSES).optional(),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    })
    .strict(),
);
export type ExecutionListFilter = z.input<ReturnType<typeof executionListFilterSchema>>;

/**
 * An execution as every adapter shows it. Built at its first use (z.lazy: the same JSON Schema): a
 * command that shows no execution never constructs it.
 */
export const ExecutionSchema = z.lazy(() =>
  z.object({
    id: z.number().int(),
    taskId: z.number().int(),
    connectionId: z.number().int().nullable(),
    connectionName: z.string(),
    providerId: z.string(),
    mode: z.enum(['fresh', 'resume']),
    status: z.enum(EXECUTION_STATUSES),
    sessionId: z.string().nullable(),
    pid: z.number().int().nullable(),
    pidStartTime: z.string().nullable(),
    exitCode: z.number().int().nullable(),
    exitSignal: z.number().int().nullable(),
    endReason: z.enum(END_REASONS).nullable(),
    /** How it ended for a person: completed, failed, stopped (by a person), interrupted (resumable); null while live. */
    outcome: z.enum(EXECUTION_OUTCOMES).nullable(),
    waitingSince: z.string().nullable(),
    leftChanges: z.boolean().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    /** What the run's CLI could not be given per run (MCP server, hooks, directive). */
    unsupportedAttachments: unsupportedAttachmentsSchema(),
  }),
);
