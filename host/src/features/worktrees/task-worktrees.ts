// A git worktree per task: created on a task's first start, reviewed as a diff against its merge
// base, merged into the base branch only when nothing can be lost, and removed (never its unmerged
// commits) when discarded or done. Nothing here runs `git gc` or `prune`, or touches refs other
// than the task's own branch and, on merge, the base branch.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../platform/db/index.js';
import type { Domain, TaskRecord } from '../domain/index.js';
import { GitRunner } from './git-runner.js';
import { revertChanges, type RevertRequest, type RevertResult } from './revert-changes.js';
import { runSetupCommand } from './run-setup-command.js';
import { copyIncludedFiles, matchesIncludeFile } from './worktree-include.js';
import { WorktreeStore, type IsolationMode, type ProjectIsolation, type TaskOverlap, type TaskWorktree } from './worktree-store.js';

export const DEFAULT_RETENTION_DAYS = 7;
const MAX_PATCH_BYTES = 2 * 1024 * 1024;
const MAX_UNTRACKED_IN_DIFF = 500;
const MAX_UNTRACKED_LISTING = 1024 * 1024;
const CLOSED_STATUSES = new Set(['DONE', 'CANCELLED']);

export interface TaskWorktreesOptions {
  db: Db;
  domain: Domain;
  svcHome: string;
  hostEnv?: NodeJS.ProcessEnv;
  git?: GitRunner;
  now?: () => Date;
}

export interface PreparedWorkspace {
  cwd: string;
  /** Output of the project's set-up command when this start made the worktree. */
  setupOutput?: string;
  worktree?: TaskWorktree;
}

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
  files: DiffFile[];
  additions: number;
  deletions: number;
  /** Changes in the worktree not yet committed to the branch (included in the diff). */
  uncommitted: boolean;
  patch?: string;
  truncated: boolean;
}

export interface MergeResult {
  taskId: number;
  outcome: 'merged' | 'already_merged';
  branch: string;
  baseBranch: string;
  commit: string;
  squash: boolean;
  files: string[];
  committedPending: boolean;
}

export interface LostCommit {
  sha: string;
  subject: string;
}

export interface DiscardResult {
  taskId: number;
  worktreeRemoved: boolean;
  branch: string;
  branchDeleted: boolean;
  /** Commits of the branch not in the base: kept unless the branch was deleted. */
  unmergedCommits: LostCommit[];
  committedPending: boolean;
}

export interface TaskBranch {
  projectId: number;
  branch: string;
  taskId: number | null;
  baseBranch: string;
  tip: string;
  unmergedCommits: number;
}

export interface CollectSkip {
  taskId: number;
  code: string;
  message: string;
}

export interface WorktreeDiskUse {
  projectId: number;
  worktrees: number;
  bytes: number;
}

export class TaskWorktrees {
  readonly store: WorktreeStore;
  readonly git: GitRunner;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: TaskWorktreesOptions) {
    this.store = new WorktreeStore(options.db, options.now);
    this.git = options.git ?? new GitRunner(options.hostEnv ?? process.env, 'git', { worktrees: { root: this.root, repositoryOf: (path) => this.repositoryOf(path) } });
  }

  get root(): string {
    return join(this.options.svcHome, 'worktrees');
  }

  isolationOf(projectId: number): ProjectIsolation {
    const project = this.options.domain.projects.get(projectId);
    const row = this.store.isolationRow(projectId);
    const effective: IsolationMode = row.isolation ?? (isRepositoryRoot(project.repoPath) ? 'worktree' : 'none');
    return { projectId, isolation: row.isolation, effective, baseBranch: row.baseBranch, setupCommand: row.setupCommand };
  }

  async setIsolation(projectId: number, patch: { isolation?: IsolationMode | null; baseBranch?: string | null; setupCommand?: string | null }): Promise<ProjectIsolation> {
    const project = this.options.domain.projects.get(projectId);
    const wantsWorktree = patch.isolation === 'worktree' || (patch.isolation === undefined && this.isolationOf(projectId).effective === 'worktree');
    if (patch.isolation === 'worktree' && !isRepositoryRoot(project.repoPath)) throw notARepository(project.id, project.repoPath);
    if (patch.baseBranch && wantsWorktree) {
      await this.git.ensureUsable();
      await this.requireBranch(project.repoPath, patch.baseBranch, project.id);
    }
    this.store.setIsolation(projectId, patch);
    return this.isolationOf(projectId);
  }

  get(taskId: number): TaskWorktree | undefined {
    return this.store.get(taskId);
  }

  /**
   * Where the task's CLI runs: its worktree (made on the first start, re-made when removed by hand or
   * collected) when the project isolates tasks, else the project folder. A task that ran in the
   * project folder before its project isolated tasks keeps running there (its CLI sessions are there).
   */
  async prepare(taskId: number, request: { baseBranch?: string } = {}): Promise<PreparedWorkspace> {
    const task = this.options.domain.tasks.get(taskId);
    const project = this.options.domain.projects.get(task.projectId);
    const existing = this.store.get(taskId);
    if (!existing) {
      if (this.isolationOf(project.id).effective === 'none') {
        if (request.baseBranch) throw notIsolated(project.id);
        return { cwd: project.repoPath };
      }
      if (!request.baseBranch && this.options.domain.executions.latestForTask(taskId)) return { cwd: project.repoPath };
    }
    return this.withLock(project.repoPath, () => this.ensureWorktree(task, project.repoPath, request.baseBranch));
  }

  async diff(taskId: number, options: { stat?: boolean } = {}): Promise<TaskDiff> {
    const { row, repo } = this.requireRow(taskId);
    await this.requireTaskBranch(repo, row);
    await this.requireBranch(repo, row.baseBranch, row.projectId);
    const live = row.state !== 'REMOVED' && existsSync(row.worktreePath);
    const where = live ? row.worktreePath : repo;
    const mergeBase = await this.git.text(['merge-base', refOf(row.baseBranch), refOf(row.branch)], repo);
    // Against the merge base: the branch's commits plus, in a live worktree, what is not committed yet.
    const range = live ? [mergeBase] : [mergeBase, refOf(row.branch)];
    const files = parseNumstat(await this.git.text(['diff', '--no-renames', '--numstat', ...range, '--'], where));
    const statuses = parseNameStatus(await this.git.text(['diff', '--no-renames', '--name-status', ...range, '--'], where));
    for (const file of files) file.status = statuses.get(file.path) ?? file.status;
    // git's output is read up to the limit and git stopped there: a file of any size costs no more.
    const whole = options.stat ? undefined : await this.git.run(['diff', '--no-renames', '--no-color', ...range, '--'], where, { maxOutputChars: MAX_PATCH_BYTES + 1 });
    let patch = whole?.stdout;
    let truncated = Boolean(whole?.truncated);
    let uncommitted = false;
    if (live) {
      uncommitted = (await this.git.run(['status', '--porcelain'], where, { maxOutputChars: 4096 })).stdout.trim() !== '';
      const listed = await this.git.run(['ls-files', '--others', '--exclude-standard', '-z'], where, { maxOutputChars: MAX_UNTRACKED_LISTING });
      const entries = listed.stdout.split('\0');
      if (listed.truncated) entries.pop();
      // A folder (`sub/`) is a repository nested in the worktree: not a file to show.
      const untracked = entries.filter((path) => path && !path.endsWith('/')).slice(0, MAX_UNTRACKED_IN_DIFF);
      for (const path of untracked) {
        const added = await this.git.run(['diff', '--no-index', '--no-color', '--numstat', '--', '/dev/null', path], where, { okCodes: [1] });
        const [adds] = added.stdout.trim().split('\t');
        files.push({ path, status: 'added', additions: adds === '-' ? 0 : Number(adds) || 0, deletions: 0, binary: adds === '-' });
        if (patch === undefined || truncated) continue;
        const room = MAX_PATCH_BYTES + 1 - patch.length;
        if (room <= 0) truncated = true;
        else {
          const one = await this.git.run(['diff', '--no-index', '--no-color', '--', '/dev/null', path], where, { okCodes: [1], maxOutputChars: room });
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
      files,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      uncommitted,
      ...(patch !== undefined ? { patch } : {}),
      truncated,
    };
  }

  /** Undoes a file's change (or one hunk of it) in the task's live worktree; the file as it was is kept under $SVC_HOME. */
  async revert(taskId: number, request: RevertRequest): Promise<RevertResult> {
    const { row, repo } = this.requireRow(taskId);
    const archiveRoot = join(this.options.svcHome, 'reverted');
    return this.withLock(repo, () => revertChanges({ git: this.git, row, repo, archiveRoot, now: this.options.now?.() ?? new Date() }, request));
  }

  /**
   * Lands the task branch on its base branch. The merged tree is computed without touching any
   * working tree (`merge-tree`), so a conflict is reported with both sides as they were; the project
   * folder only fast-forwards to the new commit, and only when its tracked files are unchanged.
   */
  async merge(taskId: number, request: { squash?: boolean; message?: string; commitPending?: boolean } = {}): Promise<MergeResult> {
    const { row, repo, task } = this.requireRow(taskId);
    return this.withLock(repo, async () => {
      await this.requireTaskBranch(repo, row);
      const baseTip = await this.requireBranch(repo, row.baseBranch, row.projectId);
      const committedPending = await this.settlePending(row, task, request.commitPending, 'merge');
      const dirty = (await this.git.run(['status', '--porcelain', '--untracked-files=no'], repo)).stdout.split('\n').filter(Boolean);
      if (dirty.length > 0) {
        throw new SvcError({
          code: 'project_folder_dirty',
          message: `the project folder ${repo} has uncommitted changes (${listFiles(dirty.map((line) => line.slice(3)))}); nothing was merged`,
          details: { files: dirty.slice(0, 50).map((line) => line.slice(3)), fix: 'commit or stash the changes in the project folder, then merge again' },
        });
      }
      const branchTip = await this.git.text(['rev-parse', '--verify', `${refOf(row.branch)}^{commit}`], repo);
      const base = { taskId, branch: row.branch, baseBranch: row.baseBranch, squash: Boolean(request.squash), committedPending };
      if ((await this.git.run(['merge-base', '--is-ancestor', branchTip, baseTip], repo, { okCodes: [1] })).exitCode === 0) {
        return { ...base, outcome: 'already_merged', commit: baseTip, files: [] };
      }
      const merged = await this.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseTip, branchTip], repo, { okCodes: [1] });
      const [tree, ...conflicted] = merged.stdout.trim().split('\n');
      if (merged.exitCode === 1) {
        throw new SvcError({
          code: 'merge_conflict',
          message: `task ${taskId}'s branch ${row.branch} conflicts with ${row.baseBranch} in ${listFiles(conflicted)}; nothing was merged`,
          details: { files: conflicted, fix: `resolve it in the task (e.g. ask it to rebase on ${row.baseBranch}), then merge again` },
        });
      }
      // A squash that already landed leaves nothing to add: re-running it changes nothing.
      if (tree === (await this.git.text(['rev-parse', `${baseTip}^{tree}`], repo))) return { ...base, outcome: 'already_merged', commit: baseTip, files: [] };
      const files = (await this.git.text(['diff', '--name-only', '--no-renames', baseTip, tree!], repo)).split('\n').filter(Boolean);
      const message = request.message ?? `${request.squash ? 'Squash' : 'Merge'} task ${taskId}: ${task.title} (${row.branch})`;
      const parents = request.squash ? ['-p', baseTip] : ['-p', baseTip, '-p', branchTip];
      const commit = await this.git.text(['commit-tree', tree!, ...parents, '-F', '-'], repo, { stdin: `${message}\n` });
      const current = await this.git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo, { okCodes: [1] });
      if (current.stdout.trim() === row.baseBranch) {
        await this.git.run(['merge', '--ff-only', '--quiet', commit], repo, { contentFilters: true });
      } else {
        // The base is not checked out here: move its ref, only if nobody moved it meanwhile.
        await this.git.run(['update-ref', '-m', `svc: merge task ${taskId}`, refOf(row.baseBranch), commit, baseTip], repo);
      }
      this.store.markMerged(taskId, commit);
      return { ...base, outcome: 'merged', commit, files };
    });
  }

  /**
   * Removes the task's worktree. Its branch stays while it has commits the base lacks, unless the
   * person deletes it naming the tip they were shown (`expectTip`), so nothing unseen is lost.
   */
  async discard(taskId: number, request: { deleteBranch?: boolean; expectTip?: string; commitPending?: boolean; dryRun?: boolean } = {}): Promise<DiscardResult> {
    const { row, repo, task } = this.requireRow(taskId);
    if (this.options.domain.executions.liveForTask(taskId)) throw this.options.domain.executions.alreadyRunning(taskId);
    return this.withLock(repo, async () => {
      const branchExists = await this.branchExists(repo, row.branch);
      const live = row.state !== 'REMOVED' && existsSync(row.worktreePath);
      const dirty = live ? (await this.git.text(['status', '--porcelain'], row.worktreePath, { repointedWorktree: 'proceed' })) !== '' : false;
      let unmergedCommits = branchExists ? await this.unmergedCommits(repo, row) : [];
      const result = { taskId, branch: row.branch, worktreeRemoved: false, branchDeleted: false, unmergedCommits, committedPending: false };
      if (request.dryRun) return { ...result, committedPending: dirty };
      const committedPending = await this.settlePending(row, task, request.commitPending, 'discard');
      if (committedPending) unmergedCommits = await this.unmergedCommits(repo, row);
      if (request.deleteBranch && branchExists && unmergedCommits.length > 0) {
        const tip = await this.git.text(['rev-parse', refOf(row.branch)], repo);
        if (!request.expectTip || !tip.startsWith(request.expectTip) || request.expectTip.length < 7) {
          throw new SvcError({
            code: 'confirmation_required',
            message: `deleting ${row.branch} loses ${unmergedCommits.length} commit${unmergedCommits.length === 1 ? '' : 's'} not in ${row.baseBranch}; nothing was removed`,
            details: { commits: unmergedCommits, tip, fix: `look at the commits, then repeat with the tip to confirm (expectTip ${tip.slice(0, 12)})` },
          });
        }
      }
      await this.removeWorktree(repo, row);
      let branchDeleted = false;
      if (request.deleteBranch && branchExists) {
        await this.git.run(['branch', '-D', '--', row.branch], repo);
        branchDeleted = true;
      }
      this.store.markRemoved(taskId);
      return { ...result, worktreeRemoved: true, branchDeleted, unmergedCommits, committedPending };
    });
  }

  /** Before a task is deleted: its worktree goes (uncommitted work committed to its branch first), its branch stays. */
  async forget(taskId: number): Promise<void> {
    const row = this.store.get(taskId);
    if (!row || (row.state === 'REMOVED' && !existsSync(row.worktreePath))) return;
    await this.discard(taskId, { commitPending: true });
  }

  /** Every `svc/` branch of the projects that isolate tasks, with how many commits the base lacks. */
  async branches(filter: { projectId?: number; unmerged?: boolean } = {}): Promise<TaskBranch[]> {
    const projects = this.options.domain.projects.list().filter((project) => filter.projectId === undefined || project.id === filter.projectId);
    const out: TaskBranch[] = [];
    for (const project of projects) {
      if (!isRepositoryRoot(project.repoPath)) continue;
      const rows = new Map(this.store.list({ projectId: project.id }).map((row) => [row.branch, row]));
      const refs = (await this.git.text(['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads/svc/'], project.repoPath)).split('\n').filter(Boolean);
      const defaultBase = this.store.isolationRow(project.id).baseBranch ?? (await this.currentBranch(project.repoPath));
      for (const line of refs) {
        const [branch, tip] = line.split(' ') as [string, string];
        const row = rows.get(branch);
        const baseBranch = row?.baseBranch ?? defaultBase ?? '';
        const baseExists = baseBranch !== '' && (await this.branchExists(project.repoPath, baseBranch));
        const count = baseExists ? Number(await this.git.text(['rev-list', '--count', `${refOf(baseBranch)}..${refOf(branch)}`], project.repoPath)) : Number.NaN;
        const unmergedCommits = Number.isNaN(count) ? Number(await this.git.text(['rev-list', '--count', refOf(branch)], project.repoPath)) : count;
        if (filter.unmerged && unmergedCommits === 0) continue;
        out.push({ projectId: project.id, branch, taskId: row?.taskId ?? taskIdOfBranch(branch), baseBranch, tip, unmergedCommits });
      }
    }
    return out;
  }

  /** Worktrees of tasks done, cancelled (or gone) for longer than the retention are removed; branches stay. */
  async collect(request: { dryRun?: boolean; retentionDays?: number } = {}): Promise<{ removed: number[]; candidates: number[]; skipped: CollectSkip[]; disk: WorktreeDiskUse[] }> {
    const retentionMs = (request.retentionDays ?? DEFAULT_RETENTION_DAYS) * 86_400_000;
    const now = (this.options.now ?? (() => new Date()))().getTime();
    const candidates: number[] = [];
    for (const row of this.store.list({ states: ['ACTIVE', 'CREATING'] })) {
      const task = safeTask(this.options.domain, row.taskId);
      if (!task || !CLOSED_STATUSES.has(task.status)) continue;
      if (now - Date.parse(task.updatedAt) < retentionMs) continue;
      if (this.options.domain.executions.liveForTask(row.taskId)) continue;
      candidates.push(row.taskId);
    }
    const removed: number[] = [];
    const skipped: CollectSkip[] = [];
    if (!request.dryRun) {
      for (const taskId of candidates) {
        // One worktree that cannot go (a git failure, a folder in use) does not stop the others.
        try {
          await this.discard(taskId, { commitPending: true });
          removed.push(taskId);
        } catch (error) {
          skipped.push({ taskId, code: SvcError.hasCode(error) ? error.code : 'internal', message: SvcError.hasCode(error) ? error.message : 'the worktree could not be removed' });
        }
      }
    }
    return { removed, candidates, skipped, disk: this.diskUse() };
  }

  /** Bytes under `$SVC_HOME/worktrees/<project>` per project (what the worktrees hold on disk). */
  diskUse(): WorktreeDiskUse[] {
    if (!existsSync(this.root)) return [];
    const out: WorktreeDiskUse[] = [];
    for (const entry of readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
      const folder = join(this.root, entry.name);
      out.push({ projectId: Number(entry.name), worktrees: readdirSync(folder).length, bytes: folderBytes(folder) });
    }
    return out.sort((a, b) => a.projectId - b.projectId);
  }

  /**
   * Pairs of open tasks of a project whose branches changed the same files, and which of those would
   * conflict (`merge-tree` on the branches: no working tree is touched). Records each pair; `fresh`
   * holds the ones new or changed since the last check.
   */
  async checkOverlaps(projectId: number): Promise<{ overlaps: TaskOverlap[]; fresh: TaskOverlap[] }> {
    const project = this.options.domain.projects.get(projectId);
    const open = this.store
      .list({ projectId, states: ['ACTIVE'] })
      .filter((row) => {
        const task = safeTask(this.options.domain, row.taskId);
        return task !== undefined && !CLOSED_STATUSES.has(task.status);
      });
    const changed = new Map<number, { tip: string; files: Set<string> }>();
    for (const row of open) {
      if (!(await this.branchExists(project.repoPath, row.branch)) || !(await this.branchExists(project.repoPath, row.baseBranch))) continue;
      const tip = await this.git.text(['rev-parse', refOf(row.branch)], project.repoPath);
      const files = (await this.git.text(['diff', '--name-only', '--no-renames', `${refOf(row.baseBranch)}...${tip}`], project.repoPath)).split('\n').filter(Boolean);
      changed.set(row.taskId, { tip, files: new Set(files) });
    }
    const overlaps: TaskOverlap[] = [];
    const fresh: TaskOverlap[] = [];
    const ids = [...changed.keys()].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = changed.get(ids[i]!)!;
        const b = changed.get(ids[j]!)!;
        const files = [...a.files].filter((file) => b.files.has(file)).sort();
        if (files.length === 0) {
          this.store.clearOverlap(ids[i]!, ids[j]!);
          continue;
        }
        const merged = await this.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', a.tip, b.tip], project.repoPath, { okCodes: [1] });
        const conflicts = merged.exitCode === 1 ? merged.stdout.trim().split('\n').slice(1).filter(Boolean).sort() : [];
        const overlap: TaskOverlap = { taskA: ids[i]!, taskB: ids[j]!, files, conflicts, detectedAt: new Date().toISOString() };
        overlaps.push(overlap);
        if (this.store.recordOverlap(overlap.taskA, overlap.taskB, files, conflicts, JSON.stringify([files, conflicts]))) fresh.push(overlap);
      }
    }
    return { overlaps, fresh };
  }

  /** Projects with at least two open tasks in worktrees: the ones the overlap check visits. */
  projectsWithOpenWorktrees(): number[] {
    const counts = new Map<number, number>();
    for (const row of this.store.list({ states: ['ACTIVE'] })) {
      const task = safeTask(this.options.domain, row.taskId);
      if (task && !CLOSED_STATUSES.has(task.status)) counts.set(row.projectId, (counts.get(row.projectId) ?? 0) + 1);
    }
    return [...counts].filter(([, count]) => count >= 2).map(([projectId]) => projectId);
  }

  private async ensureWorktree(task: TaskRecord, repo: string, baseOverride: string | undefined): Promise<PreparedWorkspace> {
    await this.git.ensureUsable();
    let row = this.store.get(task.id);
    if (row && baseOverride && baseOverride !== row.baseBranch) {
      throw new SvcError({
        code: 'invalid_request',
        message: `task ${task.id} already has branch ${row.branch} from ${row.baseBranch}; its base cannot change`,
        details: { fix: 'start a new task to work from another base branch' },
      });
    }
    if (row?.state === 'ACTIVE' && existsSync(row.worktreePath) && (await this.isRegisteredWorktree(repo, row.worktreePath))) return { cwd: row.worktreePath, worktree: row };
    await this.refuseUnsupported(repo, task.projectId);
    const branchExists = row ? await this.branchExists(repo, row.branch) : false;
    if (row && branchExists) {
      // Removed by hand, collected, or a start a kill interrupted: the branch is there, re-attach it.
      this.store.begin({ taskId: task.id, projectId: task.projectId, branch: row.branch, baseBranch: row.baseBranch, worktreePath: row.worktreePath });
      await this.addWorktree(repo, row.worktreePath, ['-f', row.worktreePath, row.branch]);
      const baseCommit = row.baseCommit ?? (await this.git.text(['merge-base', refOf(row.baseBranch), refOf(row.branch)], repo));
      const fresh = row.state === 'CREATING';
      row = this.store.activate(task.id, baseCommit);
      return fresh ? await this.setUp(task, repo, row) : { cwd: row.worktreePath, worktree: row };
    }
    const baseBranch = row?.baseBranch ?? baseOverride ?? this.store.isolationRow(task.projectId).baseBranch ?? (await this.currentBranchOrRefuse(repo, task.projectId));
    const baseCommit = await this.requireBranch(repo, baseBranch, task.projectId);
    const branch = row?.branch ?? branchName(task);
    if (!row && (await this.branchExists(repo, branch))) {
      throw new SvcError({
        code: 'task_branch_taken',
        message: `branch ${branch} already exists in ${repo} and is not task ${task.id}'s; nothing was created`,
        details: { branch, fix: `rename or delete that branch (git branch -m ${branch} <other>), then start the task again` },
      });
    }
    const worktreePath = join(this.root, String(task.projectId), String(task.id));
    row = this.store.begin({ taskId: task.id, projectId: task.projectId, branch, baseBranch, worktreePath });
    await this.addWorktree(repo, worktreePath, ['-b', branch, worktreePath, baseCommit]);
    row = this.store.activate(task.id, baseCommit);
    return this.setUp(task, repo, row);
  }

  /** `.worktreeinclude` files copied in, then the project's set-up command; a failure undoes the new worktree. */
  private async setUp(task: TaskRecord, repo: string, row: TaskWorktree): Promise<PreparedWorkspace> {
    copyIncludedFiles(repo, row.worktreePath, await this.ignoredFiles(repo));
    const command = this.store.isolationRow(task.projectId).setupCommand;
    if (!command) return { cwd: row.worktreePath, worktree: row };
    const result = await runSetupCommand(command, row.worktreePath, this.options.hostEnv);
    const output = `$ ${command}\r\n${result.output.replace(/\r?\n/g, '\r\n')}`;
    if (result.exitCode !== 0) {
      // The worktree was made by this start and holds no commits of its own: remove it and its branch
      // so the next start sets up afresh.
      await this.removeWorktree(repo, row);
      if ((await this.unmergedCommits(repo, row)).length === 0) await this.git.run(['branch', '-D', '--', row.branch], repo, { okCodes: [1] });
      this.store.markRemoved(task.id);
      this.options.db.prepare('DELETE FROM task_worktrees WHERE task_id = ? AND base_commit IS NOT NULL AND merged_commit IS NULL').run(task.id);
      throw new SvcError({
        code: 'worktree_setup_failed',
        message: `the project's set-up command failed in task ${task.id}'s new worktree (exit ${result.exitCode}); the CLI was not started`,
        details: { output: result.output.slice(-4000), fix: 'fix the command (svc project isolation <project> --setup "<command>") or the repository, then start the task again' },
      });
    }
    return { cwd: row.worktreePath, setupOutput: output, worktree: row };
  }

  private async addWorktree(repo: string, path: string, args: string[]): Promise<void> {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (existsSync(path)) {
      // Made by an add a kill interrupted after git finished: nothing left to do.
      if (await this.isRegisteredWorktree(repo, path)) return;
      // A folder git does not know (left half-written, or by hand) is moved out of the way.
      rmSync(path, { recursive: true, force: true });
    }
    await this.git.run(['worktree', 'add', '--quiet', ...args], repo, { contentFilters: true });
  }

  private async removeWorktree(repo: string, row: TaskWorktree): Promise<void> {
    if (await this.isRegisteredWorktree(repo, row.worktreePath)) {
      // git refuses to remove a worktree whose `.git` names another git directory: its folder goes
      // first, then git's record of it, as for a folder removed by hand.
      if (existsSync(row.worktreePath) && this.isRepointed(row.worktreePath)) rmSync(row.worktreePath, { recursive: true, force: true });
      if (existsSync(row.worktreePath)) await this.git.run(['worktree', 'remove', '--force', row.worktreePath], repo);
      // A folder removed by hand: drop git's record of this one worktree only.
      else await this.git.run(['worktree', 'remove', '--force', '--force', row.worktreePath], repo, { okCodes: [128] }).then(async (result) => {
        if (result.exitCode !== 0 && (await this.isRegisteredWorktree(repo, row.worktreePath))) {
          const admin = await this.worktreeAdminDir(repo, row.worktreePath);
          if (admin) rmSync(admin, { recursive: true, force: true });
        }
      });
    }
    rmSync(row.worktreePath, { recursive: true, force: true });
  }

  private isRepointed(path: string): boolean {
    try {
      this.git.gitDirOf(path);
      return false;
    } catch (error) {
      if (SvcError.hasCode(error) && error.code === 'worktree_git_dir_mismatch') return true;
      throw error;
    }
  }

  /** The project repository of the task worktree at `path` (as svc recorded it), for the git runner. */
  private repositoryOf(path: string): string | undefined {
    const [projectId, taskId, ...rest] = relative(this.root, path).split(sep);
    if (rest.length > 0 || !taskId || !/^\d+$/.test(taskId)) return undefined;
    const row = this.store.get(Number(taskId));
    if (!row || String(row.projectId) !== projectId || resolve(row.worktreePath) !== path) return undefined;
    try {
      return this.options.domain.projects.get(row.projectId).repoPath;
    } catch {
      return undefined;
    }
  }

  private async worktreeAdminDir(repo: string, path: string): Promise<string | undefined> {
    const common = await this.git.text(['rev-parse', '--path-format=absolute', '--git-common-dir'], repo);
    const folder = join(common, 'worktrees');
    if (!existsSync(folder)) return undefined;
    for (const name of readdirSync(folder)) {
      try {
        if (readFileSync(join(folder, name, 'gitdir'), 'utf8').trim() === join(path, '.git')) return join(folder, name);
      } catch {
        // not a worktree record
      }
    }
    return undefined;
  }

  /** Commits pending changes to the task branch when asked; refuses (naming the files) otherwise. */
  private async settlePending(row: TaskWorktree, task: TaskRecord, commitPending: boolean | undefined, action: 'merge' | 'discard'): Promise<boolean> {
    if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) return false;
    // Discarding a worktree whose `.git` an agent repointed stays possible (git runs against the git
    // directory svc made either way); landing from it is refused.
    const repointedWorktree = action === 'discard' ? 'proceed' : 'refuse';
    const pending = (await this.git.run(['status', '--porcelain'], row.worktreePath, { repointedWorktree })).stdout.split('\n').filter(Boolean);
    if (pending.length === 0) return false;
    if (!commitPending) {
      throw new SvcError({
        code: 'task_has_uncommitted_changes',
        message: `task ${task.id}'s worktree has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}; nothing was ${action === 'merge' ? 'merged' : 'removed'}`,
        details: { files: pending.slice(0, 50).map((line) => line.slice(3)), fix: `repeat with --commit-pending to commit them to ${row.branch} first, or let the task commit them` },
      });
    }
    await this.git.run(['add', '-A'], row.worktreePath, { repointedWorktree, contentFilters: true });
    await this.git.run(['commit', '--quiet', '--no-verify', '-m', `Pending changes of task ${task.id}: ${task.title}`], row.worktreePath, { repointedWorktree, contentFilters: true });
    return true;
  }

  private async unmergedCommits(repo: string, row: TaskWorktree): Promise<LostCommit[]> {
    const base = (await this.branchExists(repo, row.baseBranch)) ? `^${refOf(row.baseBranch)}` : undefined;
    const log = await this.git.text(['log', '--format=%H %s', '--max-count=200', refOf(row.branch), ...(base ? [base] : []), '--'], repo);
    return log
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ sha: line.slice(0, 40), subject: line.slice(41) }));
  }

  private requireRow(taskId: number): { row: TaskWorktree; repo: string; task: TaskRecord } {
    const task = this.options.domain.tasks.get(taskId);
    const row = this.store.get(taskId);
    if (!row) {
      throw new SvcError({
        code: 'task_not_isolated',
        message: `task ${taskId} has no worktree (its project does not isolate tasks, or it has not started)`,
        details: { taskId, fix: `start the task in a project whose isolation is worktree (svc project isolation <project> --mode worktree)` },
      });
    }
    return { row, repo: this.options.domain.projects.get(task.projectId).repoPath, task };
  }

  private async requireTaskBranch(repo: string, row: TaskWorktree): Promise<void> {
    if (await this.branchExists(repo, row.branch)) return;
    throw new SvcError({
      code: 'task_branch_missing',
      message: `task ${row.taskId}'s branch ${row.branch} is gone from ${repo}`,
      details: { branch: row.branch, fix: 'restore the branch (git branch <name> <commit>), or discard the task' },
    });
  }

  /** The base branch's tip; `base_branch_not_found` with a fix when it was deleted or never existed. */
  private async requireBranch(repo: string, branch: string, projectId: number): Promise<string> {
    const found = await this.git.run(['rev-parse', '--verify', '--quiet', `${refOf(branch)}^{commit}`], repo, { okCodes: [1] });
    if (found.exitCode === 0) return found.stdout.trim();
    throw new SvcError({
      code: 'base_branch_not_found',
      message: `base branch ${branch} does not exist in ${repo}`,
      details: { branch, fix: `create it, or set another base: svc project isolation ${projectId} --base <branch>` },
    });
  }

  private async branchExists(repo: string, branch: string): Promise<boolean> {
    return (await this.git.run(['rev-parse', '--verify', '--quiet', refOf(branch)], repo, { okCodes: [1] })).exitCode === 0;
  }

  private async currentBranch(repo: string): Promise<string | undefined> {
    const head = await this.git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo, { okCodes: [1] });
    return head.exitCode === 0 ? head.stdout.trim() : undefined;
  }

  private async currentBranchOrRefuse(repo: string, projectId: number): Promise<string> {
    const branch = await this.currentBranch(repo);
    if (branch) return branch;
    throw new SvcError({
      code: 'detached_head',
      message: `the project folder ${repo} has a detached HEAD, so there is no current branch to start tasks from`,
      details: { fix: `check out a branch there, or set the base: svc project isolation ${projectId} --base <branch>` },
    });
  }

  private async isRegisteredWorktree(repo: string, path: string): Promise<boolean> {
    const list = await this.git.text(['worktree', 'list', '--porcelain'], repo);
    return list.split('\n').some((line) => line === `worktree ${path}`);
  }

  /** Submodules are not checked out in a new worktree, and LFS files need git-lfs: refused with a fix. */
  private async refuseUnsupported(repo: string, projectId: number): Promise<void> {
    if (existsSync(join(repo, '.gitmodules'))) {
      throw new SvcError({
        code: 'repository_has_submodules',
        message: `${repo} uses git submodules, which a task worktree would not check out`,
        details: { fix: `run this project's tasks in its folder: svc project isolation ${projectId} --mode none` },
      });
    }
    const attributes = join(repo, '.gitattributes');
    if (existsSync(attributes) && /filter=lfs/.test(readFileSync(attributes, 'utf8'))) {
      const lfs = await this.git.run(['lfs', 'version'], repo, { okCodes: [1, 128] }).catch(() => ({ exitCode: 1 }));
      if (lfs.exitCode !== 0) {
        throw new SvcError({
          code: 'git_lfs_missing',
          message: `${repo} stores files with Git LFS and git-lfs is not installed, so a task worktree would hold pointer files`,
          details: { fix: `install git-lfs (git lfs install), or run this project's tasks in its folder: svc project isolation ${projectId} --mode none` },
        });
      }
    }
  }

  /** Ignored files of the project folder (the candidates `.worktreeinclude` picks from). */
  private async ignoredFiles(repo: string): Promise<string[]> {
    if (!existsSync(join(repo, '.worktreeinclude'))) return [];
    const listed = await this.git.text(['ls-files', '--others', '--ignored', '--exclude-standard', '-z'], repo);
    const patterns = readFileSync(join(repo, '.worktreeinclude'), 'utf8');
    return listed.split('\0').filter((path) => path && matchesIncludeFile(patterns, path));
  }

  private async withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
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

/** `svc/<task-id>-<slug of the title>`. */
export function branchName(task: Pick<TaskRecord, 'id' | 'title'>): string {
  const slug = task.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return `svc/${task.id}${slug ? `-${slug}` : ''}`;
}

function taskIdOfBranch(branch: string): number | null {
  const match = /^svc\/(\d+)(-|$)/.exec(branch);
  return match ? Number(match[1]) : null;
}

/** A few file names for a message; the full list is in the error's details. */
function listFiles(files: string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}

function refOf(branch: string): string {
  return `refs/heads/${branch}`;
}

function isRepositoryRoot(folder: string): boolean {
  return existsSync(join(folder, '.git'));
}

function safeTask(domain: Domain, taskId: number): TaskRecord | undefined {
  try {
    return domain.tasks.get(taskId);
  } catch {
    return undefined;
  }
}

function notARepository(projectId: number, repoPath: string): SvcError {
  return new SvcError({
    code: 'not_a_repository',
    message: `${repoPath} is not the top folder of a git repository, so its tasks cannot run in worktrees`,
    details: { projectId, fix: `run git init there (or point the project at the repository's top folder), or keep isolation none` },
  });
}

function notIsolated(projectId: number): SvcError {
  return new SvcError({
    code: 'task_not_isolated',
    message: `project ${projectId} runs its tasks in its folder (isolation none), so a task cannot name a base branch`,
    details: { fix: `svc project isolation ${projectId} --mode worktree` },
  });
}

function folderBytes(folder: string): number {
  let total = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        try {
          total += statSync(path).size;
        } catch {
          // removed meanwhile
        }
      }
    }
  }
  return total;
}

function parseNumstat(text: string): DiffFile[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [adds, dels, ...path] = line.split('\t');
      const binary = adds === '-';
      return { path: path.join('\t'), status: 'modified' as const, additions: binary ? 0 : Number(adds), deletions: binary ? 0 : Number(dels), binary };
    });
}

function parseNameStatus(text: string): Map<string, DiffFile['status']> {
  const out = new Map<string, DiffFile['status']>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [code, ...path] = line.split('\t');
    out.set(path.join('\t'), code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
  }
  return out;
}
