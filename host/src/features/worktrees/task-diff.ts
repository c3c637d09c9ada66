// A task's work for review: its diff against the merge base, with what is not committed yet, bounded in size.
import { existsSync } from 'node:fs';
import { conflictsWithBaseOf } from './task-overlaps.js';
import type { WorktreeContext } from './worktree-context.js';
import { refOf, requireBranch, requireRow, requireTaskBranch } from './worktree-git.js';

export const MAX_PATCH_BYTES = 2 * 1024 * 1024;

export const MAX_UNTRACKED_IN_DIFF = 500;

export const MAX_UNTRACKED_LISTING = 1024 * 1024;

export interface DiffFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface TaskDiff {
  taskId: number;
  branch: string;
  baseBranch: string;
  mergeBase: string;
  /** Files the branch would conflict in with the base branch's current tip. */
  conflictsWithBase: string[];
  files: DiffFile[];
  additions: number;
  deletions: number;
  /** Changes in the worktree not yet committed to the branch (included in the diff). */
  uncommitted: boolean;
  patch?: string;
  truncated: boolean;
}

export async function taskDiff(wt: WorktreeContext, taskId: number, options: { stat?: boolean } = {}): Promise<TaskDiff> {
  const { row, repo } = requireRow(wt, taskId);
  await requireTaskBranch(wt, repo, row);
  await requireBranch(wt, repo, row.baseBranch, row.projectId);
  const live = row.state !== 'REMOVED' && existsSync(row.worktreePath);
  const where = live ? row.worktreePath : repo;
  const mergeBase = await wt.git.text(['merge-base', refOf(row.baseBranch), refOf(row.branch)], repo);
  // Against the merge base: the branch's commits plus, in a live worktree, what is not committed yet.
  const range = live ? [mergeBase] : [mergeBase, refOf(row.branch)];
  const files = parseNumstat(await wt.git.text(['diff', '--no-renames', '--numstat', ...range, '--'], where));
  const statuses = parseNameStatus(await wt.git.text(['diff', '--no-renames', '--name-status', ...range, '--'], where));
  for (const file of files) file.status = statuses.get(file.path) ?? file.status;
  // git's output is read up to the limit and git stopped there: a file of any size costs no more.
  const whole = options.stat ? undefined : await wt.git.run(['diff', '--no-renames', '--no-color', ...range, '--'], where, { maxOutputChars: MAX_PATCH_BYTES + 1 });
  let patch = whole?.stdout;
  let truncated = Boolean(whole?.truncated);
  let uncommitted = false;
  if (live) {
    uncommitted = (await wt.git.run(['status', '--porcelain'], where, { maxOutputChars: 4096 })).stdout.trim() !== '';
    const listed = await wt.git.run(['ls-files', '--others', '--exclude-standard', '-z'], where, { maxOutputChars: MAX_UNTRACKED_LISTING });
    const entries = listed.stdout.split('\0');
    if (listed.truncated) entries.pop();
    // A folder (`sub/`) is a repository nested in the worktree: not a file to show.
    const untracked = entries.filter((path) => path && !path.endsWith('/')).slice(0, MAX_UNTRACKED_IN_DIFF);
    for (const path of untracked) {
      const added = await wt.git.run(['diff', '--no-index', '--no-color', '--numstat', '--', '/dev/null', path], where, { okCodes: [1] });
      const [adds] = added.stdout.trim().split('\t');
      files.push({ path, status: 'added', additions: adds === '-' ? 0 : Number(adds) || 0, deletions: 0, binary: adds === '-' });
      if (patch === undefined || truncated) continue;
      const room = MAX_PATCH_BYTES + 1 - patch.length;
      if (room <= 0) truncated = true;
      else {
        const one = await wt.git.run(['diff', '--no-index', '--no-color', '--', '/dev/null', path], where, { okCodes: [1], maxOutputChars: room });
        patch += one.stdout;
        truncated = Boolean(one.truncated);
      }
    }
    files.sort((a, b) => a.path.localeCompare(b.path));
  }
  if (patch !== undefined && (truncated || Buffer.byteLength(patch) > MAX_PATCH_BYTES)) {
    patch = Buffer.from(patch).subarray(0, MAX_PATCH_BYTES).toString('utf8');
    patch = patch.slice(0, patch.lastIndexOf('\ndiff --git ') + 1 || patch.length);
    truncated = true;
  }
  return {
    taskId,
    branch: row.branch,
    baseBranch: row.baseBranch,
    mergeBase,
    conflictsWithBase: await conflictsWithBaseOf(wt, taskId, repo, row),
    files,
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
    uncommitted,
    ...(patch !== undefined ? { patch } : {}),
    truncated,
  };
}

export function parseNumstat(text: string): DiffFile[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [adds, dels, ...path] = line.split('\t');
      const binary = adds === '-';
      return { path: path.join('\t'), status: 'modified' as const, additions: binary ? 0 : Number(adds), deletions: binary ? 0 : Number(dels), binary };
    });
}

export function parseNameStatus(text: string): Map<string, DiffFile['status']> {
  const out = new Map<string, DiffFile['status']>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [code, ...path] = line.split('\t');
    out.set(path.join('\t'), code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
  }
  return out;
}
