export { GitRunner, MIN_GIT_VERSION } from './git-runner.js';
export * from './task-worktrees.js';
export * from './worktree-store.js';
export { matchesIncludeFile, parseIncludeFile } from './worktree-include.js';
export { ARCHIVE_RETENTION_DAYS, WorktreeArchive, type ArchiveEntry, type ArchiveManifest, type WorktreeHoldings } from './worktree-archive.js';
export { taskWorktreesOf } from './task-worktrees-of.js';
export { WorktreeWatcher, type WorktreeWatcherOptions } from './worktree-watcher.js';
