// The `svc/` branches of the projects that isolate tasks, with how many commits their base lacks.
import type { WorktreeContext } from './worktree-context.js';
import { currentBranch, hasBranch, isRepositoryRoot, refOf, unmergedCommitsOf } from './worktree-git.js';

export interface TaskBranch {
  projectId: number;
  branch: string;
  taskId: number | null;
  baseBranch: string;
  tip: string;
  unmergedCommits: number;
}

/** Every `svc/` branch of the projects that isolate tasks, with how many commits the base lacks. */
export async function listTaskBranches(wt: WorktreeContext, filter: { projectId?: number; unmerged?: boolean } = {}): Promise<TaskBranch[]> {
  const projects = wt.options.domain.projects.list().filter((project) => filter.projectId === undefined || project.id === filter.projectId);
  const out: TaskBranch[] = [];
  for (const project of projects) {
    if (!isRepositoryRoot(project.repoPath)) continue;
    const rows = new Map(wt.store.list({ projectId: project.id }).map((row) => [row.branch, row]));
    const refs = (await wt.git.text(['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads/svc/'], project.repoPath)).split('\n').filter(Boolean);
    const defaultBase = wt.store.isolationRow(project.id).baseBranch ?? (await currentBranch(wt, project.repoPath));
    for (const line of refs) {
      const [branch, tip] = line.split(' ') as [string, string];
      const row = rows.get(branch);
      const baseBranch = row?.baseBranch ?? defaultBase ?? '';
      const baseExists = baseBranch !== '' && (await hasBranch(wt, project.repoPath, baseBranch));
      const count = baseExists ? Number(await wt.git.text(['rev-list', '--count', `${refOf(baseBranch)}..${refOf(branch)}`], project.repoPath)) : Number.NaN;
      const unmergedCommits = Number.isNaN(count) ? Number(await wt.git.text(['rev-list', '--count', refOf(branch)], project.repoPath)) : count;
      if (filter.unmerged && unmergedCommits === 0) continue;
      out.push({ projectId: project.id, branch, taskId: row?.taskId ?? taskIdOfBranch(branch), baseBranch, tip, unmergedCommits });
    }
  }
  return out;
}

export function taskIdOfBranch(branch: string): number | null {
  const match = /^svc\/(\d+)(-|$)/.exec(branch);
  return match ? Number(match[1]) : null;
}
