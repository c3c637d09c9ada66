// The database side of the lifecycle's live events (docs/task-worktrees.md, "Lifecycle"): a start,
// a turn that ends or begins, a question asked or answered. The terminals and the hooks call these;
// how an execution ends is execution-end.ts, the commands that end a task's work task-lifecycle.ts.
import type { Domain, ExecutionRecord, TaskRecord } from '../domain/index.js';

/** start and resume: a TODO or IN_REVIEW task is worked on again. */
export function taskStarted(domain: Domain, task: TaskRecord): void {
  if (task.status === 'TODO' || task.status === 'IN_REVIEW') domain.tasks.moveTo(task.id, 'IN_PROGRESS');
}

/** The CLI's Stop hook: it finished a turn and waits at its own prompt (the task needs the person). */
export function turnEnded(domain: Domain, executionId: number): void {
  domain.executions.markWaiting(executionId);
}

/** A message reached the CLI (its prompt hook, or svc typed one): its turn runs again. */
export function messageSubmitted(domain: Domain, executionId: number): void {
  domain.executions.clearWaiting(executionId);
}

/** ask_human: the live execution parks (PAUSED); its PTY stays and its keepalive is held. */
export function questionAsked(domain: Domain, executionId: number): ExecutionRecord {
  return domain.executions.setLiveStatus(executionId, 'PAUSED');
}

/** The answer arrived: the parked execution runs again (the answer is typed in as its next message). */
export function questionAnswered(domain: Domain, executionId: number): ExecutionRecord {
  const record = domain.executions.setLiveStatus(executionId, 'RUNNING');
  domain.executions.clearWaiting(executionId);
  return record;
}
