export const EXECUTION_STATUSES = ['RUNNING', 'PAUSED', 'COMPLETED', 'FAILED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** A live execution owns a PTY in the running service; PAUSED is parked, not stopped. */
export const LIVE_EXECUTION_STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'PAUSED'];

/**
 * Why an execution ended: the CLI exited by itself, a person pressed Stop, nobody was attached for
 * the keepalive period, the service shut down cleanly, or the service died and found it on restart.
 */
export const END_REASONS = ['exited', 'stopped', 'keepalive', 'service_shutdown', 'service_restart', 'spawn_failed'] as const;
export type EndReason = (typeof END_REASONS)[number];

/**
 * How an execution ended, in the words a person reads: `completed`, `failed` (a real failure),
 * `stopped` (a person's Stop, or the keepalive), `interrupted` (the service shut down or died under
 * it; resuming continues its session). Only `failed` is FAILED; the others end COMPLETED.
 */
export const EXECUTION_OUTCOMES = ['completed', 'failed', 'stopped', 'interrupted'] as const;
export type ExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];
