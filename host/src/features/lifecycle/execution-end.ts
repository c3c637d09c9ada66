// How an execution's end is recorded: the lifecycle's "execution ends", "stop", "shutdown" and
// "restart" rows (docs/task-worktrees.md). Only a real failure ends FAILED.
import type { EndReason, ExecutionEnd, ExecutionOutcome } from '../domain/index.js';
import { outcomeOf } from '../domain/index.js';

/** What the PTY reported when the CLI's process ended, and who ended it. */
export interface ProcessExit {
  exitCode: number;
  signal: number | null;
  reason: EndReason;
}

/**
 * The record of a CLI that ended: a person's Stop and the keepalive are `stopped`, a clean shutdown
 * `interrupted` (resumable), whatever the signal that ended the process; a CLI that exited by itself
 * `completed` on a clean exit, `failed` otherwise.
 */
export function endOfExit(exit: ProcessExit, leftChanges?: boolean): ExecutionEnd {
  const clean = exit.exitCode === 0 && exit.signal === null;
  const outcome: ExecutionOutcome = exit.reason === 'exited' ? (clean ? 'completed' : 'failed') : outcomeOf('COMPLETED', exit.reason);
  return {
    status: outcome === 'failed' ? 'FAILED' : 'COMPLETED',
    endReason: exit.reason,
    outcome,
    exitCode: exit.exitCode,
    exitSignal: exit.signal,
    ...(leftChanges === undefined ? {} : { leftChanges }),
  };
}

/** The CLI could not be started: a real failure. */
export function endOfSpawnFailure(failure: { code: string; message: string }): ExecutionEnd {
  return { status: 'FAILED', endReason: 'spawn_failed', outcome: 'failed', error: { code: failure.code, message: failure.message } };
}

/** The service died under a live execution and found it on its next start: interrupted, resumable. */
export function endOfRestart(): ExecutionEnd {
  return {
    status: 'COMPLETED',
    endReason: 'service_restart',
    outcome: 'interrupted',
    error: {
      code: 'service_restarted',
      message: 'the service stopped while this execution was live; a terminal cannot be reattached after a restart (resume the task to continue)',
    },
  };
}

/** The words every face shows for an outcome: neutral unless it is a real failure. */
export const OUTCOME_WORDS: Record<ExecutionOutcome, string> = {
  completed: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
  interrupted: 'Interrupted — resumable',
};

/** An execution's state in words: live, or how it ended (a failure with its exit). */
export function executionWords(execution: {
  status: 'RUNNING' | 'PAUSED' | 'COMPLETED' | 'FAILED';
  outcome: ExecutionOutcome | null;
  exitCode: number | null;
  exitSignal: number | null;
}): string {
  if (execution.status === 'RUNNING') return 'Running';
  if (execution.status === 'PAUSED') return 'Paused — waiting for an answer';
  const outcome = execution.outcome ?? (execution.status === 'FAILED' ? 'failed' : 'completed');
  if (outcome !== 'failed') return OUTCOME_WORDS[outcome];
  const how = execution.exitSignal ? `signal ${execution.exitSignal}` : execution.exitCode !== null ? `exit ${execution.exitCode}` : '';
  return how ? `${OUTCOME_WORDS.failed} (${how})` : OUTCOME_WORDS.failed;
}
