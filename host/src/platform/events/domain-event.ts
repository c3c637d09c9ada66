import { z } from 'zod';

/** What happened: the facts the harness (stop-hook fan-out, completion reviews, outbox) reacts to. */
export const DOMAIN_EVENT_TYPES = ['execution_ended', 'task_status_changed', 'stop_hook_arrived', 'task_conflicts_with_base'] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export const EVENT_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;

// Built at its first parse (z.lazy): a command that reads no event row never constructs it.
export const DomainEventRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      type: z.enum(DOMAIN_EVENT_TYPES),
      dedup_key: z.string(),
      payload: z.string().transform((text) => JSON.parse(text) as Record<string, unknown>),
      status: z.enum(EVENT_STATUSES),
      attempts: z.number(),
      next_attempt_at: z.number(),
      lease_owner: z.string().nullable(),
      lease_until: z.number().nullable(),
      last_error: z.string().nullable(),
      created_at: z.number(),
      processed_at: z.number().nullable(),
    })
    .transform((row) => ({
      id: row.id,
      type: row.type,
      dedupKey: row.dedup_key,
      payload: row.payload,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      leaseOwner: row.lease_owner,
      leaseUntil: row.lease_until,
      lastError: row.last_error,
      createdAt: row.created_at,
      processedAt: row.processed_at,
    })),
);

export type DomainEvent = z.output<typeof DomainEventRowSchema>;

export interface NewDomainEvent {
  type: DomainEventType;
  /** Names the fact once: a second append with the same key is ignored. */
  dedupKey: string;
  payload: Record<string, unknown>;
}
