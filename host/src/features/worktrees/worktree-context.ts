// What every task-worktree operation works with: the host's records, the git runner, the archive,
// where worktrees live, and one lock per repository shared by every caller.
import type { Db } from '../../platform/db/index.js';
import type { Domain } from '../domain/index.js';
import type { GitRunner } from './git-runner.js';
import type { WorktreeArchive } from './worktree-archive.js';
import type { WorktreeStore } from './worktree-store.js';

export interface TaskWorktreesOptions {
  db: Db;
  domain: Domain;
  svcHome: string;
  hostEnv?: NodeJS.ProcessEnv;
  git?: GitRunner;
  now?: () => Date;
}

export interface WorktreeContext {
  readonly options: TaskWorktreesOptions;
  readonly store: WorktreeStore;
  readonly git: GitRunner;
  readonly archive: WorktreeArchive;
  /** `$SVC_HOME/worktrees`: `<project>/<task>` below it. */
  readonly root: string;
  /** Runs `work` after every earlier work on the same key (a repository) has settled. */
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>;
}
