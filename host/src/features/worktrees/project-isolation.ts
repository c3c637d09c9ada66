// Whether a project's tasks run in worktrees, from which base branch, and after which set-up command.
import { SvcError } from '@svc-org/ai-sdk';
import type { WorktreeContext } from './worktree-context.js';
import { isRepositoryRoot, requireBranch } from './worktree-git.js';
import type { IsolationMode, ProjectIsolation } from './worktree-store.js';

export function isolationOf(wt: WorktreeContext, projectId: number): ProjectIsolation {
  const project = wt.options.domain.projects.get(projectId);
  const row = wt.store.isolationRow(projectId);
  const effective: IsolationMode = row.isolation ?? (isRepositoryRoot(project.repoPath) ? 'worktree' : 'none');
  return { projectId, isolation: row.isolation, effective, baseBranch: row.baseBranch, setupCommand: row.setupCommand };
}

export async function setIsolation(wt: WorktreeContext, projectId: number, patch: { isolation?: IsolationMode | null; baseBranch?: string | null; setupCommand?: string | null }): Promise<ProjectIsolation> {
  const project = wt.options.domain.projects.get(projectId);
  const wantsWorktree = patch.isolation === 'worktree' || (patch.isolation === undefined && isolationOf(wt, projectId).effective === 'worktree');
  if (patch.isolation === 'worktree' && !isRepositoryRoot(project.repoPath)) throw notARepository(project.id, project.repoPath);
  if (patch.baseBranch && wantsWorktree) {
    await wt.git.ensureUsable();
    await requireBranch(wt, project.repoPath, patch.baseBranch, project.id);
  }
  wt.store.setIsolation(projectId, patch);
  return isolationOf(wt, projectId);
}

export function notARepository(projectId: number, repoPath: string): SvcError {
  return new SvcError({
    code: 'not_a_repository',
    message: `${repoPath} is not the top folder of a git repository, so its tasks cannot run in worktrees`,
    details: { projectId, fix: `run git init there (or point the project at the repository's top folder), or keep isolation none` },
  });
}
