// Reverting what a task changed in one file of its live worktree, whole or one hunk, before it is
// merged: the file goes back to its content at the merge base (or the hunk is undone), in the
// worktree only. The file as it was is copied under $SVC_HOME first, so nothing is lost; a hunk that
// is no longer the one the person saw is refused, and a refusal changes nothing.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { GitRunner } from './git-runner.js';
import type { WorktreeContext } from './worktree-context.js';
import { requireRow } from './worktree-git.js';
import type { TaskWorktree } from './worktree-store.js';

export interface RevertRequest {
  path: string;
  /** The hunk's index in the file's diff (from 0), as the review shows it; absent: the whole file. */
  hunk?: number;
  /** The hunk's `@@ … @@` line the person saw: a different hunk at that index is refused. */
  hunkHeader?: string;
  /** Say what would be reverted, change nothing. */
  dryRun?: boolean;
}

export interface RevertResult {
  taskId: number;
  path: string;
  hunk: number | null;
  /** The change that is (or would be) undone, as a unified diff. */
  patch: string;
  additions: number;
  deletions: number;
  /** What happens to the file: restored to its base content, deleted (it is new), or one hunk undone. */
  action: 'restore' | 'delete' | 'undo_hunk';
  /** Where the file as it was is kept (not on a dry run, nor when the file did not exist). */
  savedCopy: string | null;
  dryRun: boolean;
}

/** The header lines of a file's diff and its hunks (each from its `@@` line). */
function splitHunks(patch: string): { header: string; hunks: string[] } {
  const lines = patch.split('\n');
  const first = lines.findIndex((line) => line.startsWith('@@'));
  if (first < 0) return { header: patch, hunks: [] };
  const hunks: string[] = [];
  let current: string[] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith('@@') && current.length) {
      hunks.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  if (current.length) hunks.push(current.join('\n').replace(/\n$/, ''));
  return { header: lines.slice(0, first).join('\n'), hunks };
}

const headerOf = (hunk: string) => /^@@ [^@]* @@/.exec(hunk)?.[0] ?? '';

function count(patch: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of splitHunks(patch).hunks.join('\n').split('\n')) {
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions };
}

/** Undoes a file's change (or one hunk of it) in the task's live worktree; the file as it was is kept under $SVC_HOME. */
export async function revertTaskChanges(wt: WorktreeContext, taskId: number, request: RevertRequest): Promise<RevertResult> {
  const { row, repo } = requireRow(wt, taskId);
  const archiveRoot = join(wt.options.svcHome, 'reverted');
  return wt.withLock(repo, () => revertChanges({ git: wt.git, row, repo, archiveRoot, now: wt.options.now?.() ?? new Date() }, request));
}

export async function revertChanges(
  context: { git: GitRunner; row: TaskWorktree; repo: string; archiveRoot: string; now: Date },
  request: RevertRequest,
): Promise<RevertResult> {
  const { git, row, repo } = context;
  if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) {
    throw new SvcError({ code: 'worktree_removed', message: `task ${row.taskId}'s worktree is removed: there is nothing to revert in it`, details: { taskId: row.taskId } });
  }
  const path = normalize(request.path);
  if (isAbsolute(path) || path === '..' || path.startsWith(`..${sep}`) || path === '.') {
    throw new SvcError({ code: 'invalid_request', message: `${request.path} is not a path inside the task's worktree` });
  }
  const where = row.worktreePath;
  const mergeBase = await git.text(['merge-base', `refs/heads/${row.baseBranch}`, `refs/heads/${row.branch}`], repo);
  const inBase = (await git.run(['cat-file', '-e', `${mergeBase}:${path}`], where, { okCodes: [1, 128] })).exitCode === 0;
  const untracked = !inBase && (await git.text(['ls-files', '--others', '--exclude-standard', '--', path], where)) !== '';
  const patch = untracked
    ? (await git.run(['diff', '--no-index', '--no-ext-diff', '--no-color', '--', '/dev/null', path], where, { okCodes: [1] })).stdout
    : (await git.run(['diff', '--no-renames', '--no-ext-diff', '--no-color', mergeBase, '--', path], where)).stdout;
  if (patch.trim() === '') {
    throw new SvcError({ code: 'nothing_to_revert', message: `task ${row.taskId} has not changed ${path} against its base`, details: { taskId: row.taskId, path } });
  }
  const { header, hunks } = splitHunks(patch);
  let undo = patch;
  if (request.hunk !== undefined) {
    const hunk = hunks[request.hunk];
    if (hunk === undefined || (request.hunkHeader !== undefined && headerOf(hunk) !== headerOf(request.hunkHeader))) {
      throw new SvcError({
        code: 'revert_stale',
        message: `the change in ${path} is no longer the one shown (hunk ${request.hunk + 1} of ${hunks.length}): nothing was reverted`,
        details: { taskId: row.taskId, path, fix: 'reload the review and choose the hunk again' },
      });
    }
    undo = `${header}\n${hunk}\n`;
  }
  const action: RevertResult['action'] = request.hunk !== undefined ? 'undo_hunk' : inBase ? 'restore' : 'delete';
  const result = { taskId: row.taskId, path, hunk: request.hunk ?? null, patch: undo, ...count(undo), action, savedCopy: null as string | null, dryRun: request.dryRun === true };
  if (request.hunk !== undefined) await git.run(['apply', '-R', '--check', '-'], where, { stdin: undo });
  if (request.dryRun) return result;

  const file = join(where, path);
  if (existsSync(file)) {
    const saved = join(context.archiveRoot, `task-${row.taskId}`, context.now.toISOString().replace(/[:.]/g, '-'), path);
    mkdirSync(dirname(saved), { recursive: true });
    copyFileSync(file, saved);
    result.savedCopy = saved;
  }
  if (action === 'undo_hunk') await git.run(['apply', '-R', '-'], where, { stdin: undo });
  else if (action === 'delete') rmSync(file, { force: true });
  // The base's content in the worktree only (the index keeps what the task staged or committed).
  else await git.run(['restore', `--source=${mergeBase}`, '--worktree', '--', path], where);
  return result;
}
