// The transitions a person (or an agent) asks for by name: stop, merge, squash-merge, discard. Each
// decides the task's status, its execution and its terminal here, and leaves git to the task's
// worktree (task-worktrees.ts). The table of every transition is in docs/task-worktrees.md.
import { SvcError } from '@svc-org/ai-sdk';
import type { Domain, ExecutionRecord, TaskRecord, TaskStatus } from '../domain/index.js';
import type { DiscardResult, MergeResult, TaskWorktrees } from '../worktrees/index.js';

/**
 * What the transitions ask of the live terminals: the terminal manager, which reports its own
 * transitions (started, ended) to this module, so it is named here by what is used of it.
 */
export interface LiveTerminals {
  stop(taskId: number, reason: 'stopped'): Promise<ExecutionRecord>;
  summary(taskId: number): { state: string } | undefined;
}

export interface LifecycleParts {
  domain: Domain;
  worktrees: TaskWorktrees;
  /** The live terminals; present only inside `svc serve`. */
  terminals?: LiveTerminals;
}

export interface EndWorkOptions {
  /** Stop the task's running execution first; without it a running execution refuses the command. */
  stop?: boolean;
  /** Leave the task's status as it is (by default merge moves it to DONE, discard to CANCELLED). */
  keepOpen?: boolean;
}

export interface MergeRequest extends EndWorkOptions {
  squash?: boolean;
  message?: string;
  commitPending?: boolean;
}

export interface DiscardRequest extends EndWorkOptions {
  deleteBranch?: boolean;
  expectTip?: string;
  commitPending?: boolean;
  dryRun?: boolean;
  /** The person confirmed removing what only the worktree holds (it is archived). */
  force?: boolean;
}

export interface EndedWork {
  /** The task's status afterwards. */
  taskStatus: TaskStatus;
  /** The execution stopped by this command, if one was running. */
  stoppedExecutionId: number | null;
}

/** The Stop button: the task's live terminal ends `stopped`; the task keeps its status. */
export async function stopTask(parts: Pick<LifecycleParts, 'terminals'>, taskId: number): Promise<ExecutionRecord> {
  if (!parts.terminals) throw serviceNeeded(taskId);
  return parts.terminals.stop(taskId, 'stopped');
}

/**
 * Merging ends the task's work: the branch lands first (a refusal or conflict changes nothing, the
 * execution keeps running), then a running execution is stopped (only when asked: `stop`), and the
 * task moves to DONE unless kept open. The merge commit stays recorded on the task's worktree.
 */
export async function mergeTask(parts: LifecycleParts, taskId: number, request: MergeRequest = {}): Promise<MergeResult & EndedWork> {
  const { stop, keepOpen, ...git } = request;
  const task = parts.domain.tasks.get(taskId);
  const live = requireStoppable(parts, task, stop, 'merge');
  const merged = await parts.worktrees.merge(taskId, git);
  const stoppedExecutionId = live ? await stopLive(parts, taskId, live) : null;
  return { ...merged, stoppedExecutionId, taskStatus: keepOpen ? parts.domain.tasks.get(taskId).status : close(parts.domain, taskId, 'DONE') };
}

/**
 * Discarding ends the task's worktree work the same way: a running execution is stopped first (only
 * when asked), the worktree goes (git rules in task-worktrees.ts), and the task moves to CANCELLED
 * unless kept open (a task already DONE stays DONE). A dry run changes nothing.
 */
export async function discardTask(parts: LifecycleParts, taskId: number, request: DiscardRequest = {}): Promise<DiscardResult & EndedWork> {
  const { stop, keepOpen, ...git } = request;
  const task = parts.domain.tasks.get(taskId);
  if (git.dryRun) {
    // A preview for a person who will stop the task first (stop) lists what it would lose now.
    const live = parts.domain.executions.liveForTask(taskId);
    if (live && !stop) throw stillRunning(task, live, 'discard');
    return { ...(await parts.worktrees.discard(taskId, git)), taskStatus: task.status, stoppedExecutionId: null };
  }
  const live = requireStoppable(parts, task, stop, 'discard');
  // Files only the worktree holds and the person did not confirm: refused before anything stops.
  await parts.worktrees.refuseLosing(taskId, git);
  const stoppedExecutionId = live ? await stopLive(parts, taskId, live) : null;
  const discarded = await parts.worktrees.discard(taskId, git);
  return { ...discarded, stoppedExecutionId, taskStatus: keepOpen ? parts.domain.tasks.get(taskId).status : close(parts.domain, taskId, 'CANCELLED') };
}

/**
 * When the task's execution ended: whether its worktree holds changes against its base (committed or
 * not). Undefined when it has no worktree of its own or git cannot tell.
 */
export async function worktreeHasChanges(worktrees: TaskWorktrees, taskId: number): Promise<boolean | undefined> {
  const row = worktrees.get(taskId);
  if (!row || row.state !== 'ACTIVE') return undefined;
  try {
    return (await worktrees.diff(taskId, { stat: true })).files.length > 0;
  } catch {
    return undefined;
  }
}

function requireStoppable(parts: LifecycleParts, task: TaskRecord, stop: boolean | undefined, action: 'merge' | 'discard'): ExecutionRecord | undefined {
  const live = parts.domain.executions.liveForTask(task.id);
  if (!live) return undefined;
  if (!stop) throw stillRunning(task, live, action);
  if (!parts.terminals) throw serviceNeeded(task.id);
  return live;
}

async function stopLive(parts: LifecycleParts, taskId: number, live: ExecutionRecord): Promise<number> {
  const terminals = parts.terminals!;
  // The execution may have ended by itself meanwhile; only a live terminal is stopped.
  if (terminals.summary(taskId)?.state !== 'ENDED' && parts.domain.executions.liveForTask(taskId)) await terminals.stop(taskId, 'stopped');
  return live.id;
}

/** Moves an open task to `to`; a closed one keeps its status. */
function close(domain: Domain, taskId: number, to: 'DONE' | 'CANCELLED'): TaskStatus {
  const status = domain.tasks.get(taskId).status;
  if (status === 'DONE' || status === 'CANCELLED') return status;
  return domain.tasks.moveTo(taskId, to).status;
}

function stillRunning(task: TaskRecord, live: ExecutionRecord, action: 'merge' | 'discard'): SvcError {
  return new SvcError({
    code: 'task_still_running',
    message: `task ${task.id} is still running (execution ${live.id} is ${live.status}); ${action === 'merge' ? 'merging' : 'discarding'} ends its work, so it is stopped only when you say so; nothing was ${action === 'merge' ? 'merged' : 'removed'}`,
    details: { taskId: task.id, executionId: live.id, status: live.status, fix: `repeat with --stop to stop it first (HTTP and MCP: "stop": true), or stop it yourself` },
  });
}

function serviceNeeded(taskId: number): SvcError {
  return new SvcError({
    code: 'server_not_running',
    message: `task ${taskId}'s execution lives in the service, which is not running`,
    details: { taskId, fix: 'start it with `svc serve` (it ends what the previous run left), then repeat' },
  });
}
