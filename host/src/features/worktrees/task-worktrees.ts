// A git worktree per task: created on a task's first start, reviewed as a diff against its merge
// base, merged into the base branch only when nothing can be lost, and removed (never its unmerged
// commits) when discarded or done. Nothing here runs `git gc` or `prune`, or touches refs other
// than the task's own branch and, on merge, the base branch. Each concern lives in its own file;
// this class holds what they share (the records, the git runner, the archive, the per-repository
// locks) and answers for them.
import { join } from 'node:path';
import { collectTaskWorktrees, worktreeDiskUse } from './collect-task-worktrees.js';
import { discardTaskWorktree, forgetTaskWorktree, refuseLosing } from './discard-task-worktree.js';
import { GitRunner } from './git-runner.js';
import { mergeTaskBranch } from './merge-task-branch.js';
import { prepareTaskWorktree } from './prepare-task-worktree.js';
import { isolationOf, setIsolation } from './project-isolation.js';
import { restoreTaskWorktree } from './restore-task-worktree.js';
import { revertTaskChanges } from './revert-changes.js';
import { listTaskBranches } from './task-branches.js';
import { taskDiff } from './task-diff.js';
import { checkOverlaps, projectsWithOpenWorktrees, truthOf } from './task-overlaps.js';
import { WorktreeArchive } from './worktree-archive.js';
import type { TaskWorktreesOptions, WorktreeContext } from './worktree-context.js';
import { repositoryOf } from './worktree-folders.js';
import { WorktreeStore, type TaskWorktree } from './worktree-store.js';

export class TaskWorktrees implements WorktreeContext {
  readonly store: WorktreeStore;
  readonly git: GitRunner;
  readonly archive: WorktreeArchive;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly options: TaskWorktreesOptions) {
    this.store = new WorktreeStore(options.db, options.now);
    this.git = options.git ?? new GitRunner(options.hostEnv ?? process.env, 'git', { worktrees: { root: this.root, repositoryOf: (path) => repositoryOf(this, path) } });
    this.archive = new WorktreeArchive(this.git, options.svcHome, options.now);
  }

  get root(): string {
    return join(this.options.svcHome, 'worktrees');
  }

  get(taskId: number): TaskWorktree | undefined {
    return this.store.get(taskId);
  }

  isolationOf = (...args: Tail<typeof isolationOf>) => isolationOf(this, ...args);
  setIsolation = (...args: Tail<typeof setIsolation>) => setIsolation(this, ...args);
  prepare = (...args: Tail<typeof prepareTaskWorktree>) => prepareTaskWorktree(this, ...args);
  diff = (...args: Tail<typeof taskDiff>) => taskDiff(this, ...args);
  revert = (...args: Tail<typeof revertTaskChanges>) => revertTaskChanges(this, ...args);
  merge = (...args: Tail<typeof mergeTaskBranch>) => mergeTaskBranch(this, ...args);
  discard = (...args: Tail<typeof discardTaskWorktree>) => discardTaskWorktree(this, ...args);
  refuseLosing = (...args: Tail<typeof refuseLosing>) => refuseLosing(this, ...args);
  restore = (...args: Tail<typeof restoreTaskWorktree>) => restoreTaskWorktree(this, ...args);
  forget = (...args: Tail<typeof forgetTaskWorktree>) => forgetTaskWorktree(this, ...args);
  branches = (...args: Tail<typeof listTaskBranches>) => listTaskBranches(this, ...args);
  collect = (...args: Tail<typeof collectTaskWorktrees>) => collectTaskWorktrees(this, ...args);
  diskUse = () => worktreeDiskUse(this);
  checkOverlaps = (...args: Tail<typeof checkOverlaps>) => checkOverlaps(this, ...args);
  truthOf = (...args: Tail<typeof truthOf>) => truthOf(this, ...args);
  projectsWithOpenWorktrees = () => projectsWithOpenWorktrees(this);

  async withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.locks.set(key, next);
    try {
      return await next;
    } finally {
      if (this.locks.get(key) === next) this.locks.delete(key);
    }
  }
}

/** A function's parameters after the context it is given. */
type Tail<F> = F extends (wt: WorktreeContext, ...rest: infer R) => unknown ? R : never;
