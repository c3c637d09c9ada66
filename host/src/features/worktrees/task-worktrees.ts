// A git worktree per task: created on a task's first start, reviewed as a diff against its merge
// base, merged into the base branch only when nothing can be lost, and removed (never its unmerged
// commits) when discarded or done. Nothing here runs `git gc` or `prune`, or touches refs other
// than the task's own branch and, on merge, the base branch.
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../platform/db/index.js';
import type { Domain, TaskRecord } from '../domain/index.js';
import { GitRunner } from './git-runner.js';
import { revertChanges, type RevertRequest, type RevertResult } from './revert-changes.js';
import { runSetupCommand } from './run-setup-command.js';
import { copyIncludedFiles, matchesIncludeFile } from './worktree-include.js';
import { ARCHIVE_RETENTION_DAYS, holdingsCount, holdingsList, WorktreeArchive, writeFileAtomic, type ArchiveEntry, type WorktreeHoldings } from './worktree-archive.js';
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

interface PendingCommit {
  commit: string;
  indexPath: string;
  indexBefore: Buffer | undefined;
  repointedWorktree: 'proceed' | 'refuse';
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
  /** What only the worktree held (before it was removed). */
  held: WorktreeHoldings;
  /** The worktree went to the archive first (`restore` brings it back). */
  archived: boolean;
}

export interface RestoreResult {
  taskId: number;
  outcome: 'restored' | 'already_restored';
  branch: string;
  worktreePath: string;
  /** Files copied back from the archive (besides the branch's own). */
  files: number;
  archivedAt: string;
}

/** A worktree collection left in place: it holds files a person may have written. */
export interface KeptWorktree {
  taskId: number;
  files: string[];
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

export interface BaseConflict {
  taskId: number;
  baseBranch: string;
  /** The base branch's tip it was computed against. */
  baseTip: string;
  /** Files the task's branch would conflict in with that tip. */
  files: string[];
}

export interface GitTruth {
  /** Pairs of open tasks whose branches changed the same files. */
  overlaps: TaskOverlap[];
  /** Of those, the ones new or changed since the last check. */
  fresh: TaskOverlap[];
  /** Open tasks whose branch would conflict with its base branch's tip. */
  baseConflicts: BaseConflict[];
  /** Of those, the ones that conflict now and did not (or in other files) at the last check. */
  newBaseConflicts: BaseConflict[];
}

export interface WorktreeDiskUse {
  projectId: number;
  worktrees: number;
  bytes: number;
}

export class TaskWorktrees {
  readonly store: WorktreeStore;
  readonly git: GitRunner;
  readonly archive: WorktreeArchive;
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly truths = new Map<number, { signature: string; truth: GitTruth }>();

  constructor(private readonly options: TaskWorktreesOptions) {
    this.store = new WorktreeStore(options.db, options.now);
    this.git = options.git ?? new GitRunner(options.hostEnv ?? process.env, 'git', { worktrees: { root: this.root, repositoryOf: (path) => this.repositoryOf(path) } });
    this.archive = new WorktreeArchive(this.git, options.svcHome, options.now);
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
      conflictsWithBase: await this.conflictsWithBaseOf(taskId, repo, row),
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
   * Lands the task branch on its base branch. Everything is computed and checked before any ref
   * moves: the pending work as a commit object (through a copy of the worktree's index), the merged
   * tree (`merge-tree`, no working tree touched), what the project folder would have overwritten.
   * So a refusal or a conflict changes nothing: not the task's branch, not its worktree's index, not
   * the base. The project folder only fast-forwards to the new commit, and only when its tracked
   * files are unchanged and no file it holds outside git would be replaced; a base checked out in
   * another worktree is not moved. After the merge every open task of the project is checked again
   * against the new base (`checkOverlaps`).
   */
  async merge(taskId: number, request: { squash?: boolean; message?: string; commitPending?: boolean } = {}): Promise<MergeResult> {
    const { row, repo, task } = this.requireRow(taskId);
    const result = await this.withLock(repo, async (): Promise<MergeResult> => {
      await this.requireTaskBranch(repo, row);
      const baseTip = await this.requireBranch(repo, row.baseBranch, row.projectId);
      const dirty = (await this.git.run(['status', '--porcelain', '--untracked-files=no'], repo)).stdout.split('\n').filter(Boolean);
      if (dirty.length > 0) {
        throw new SvcError({
          code: 'project_folder_dirty',
          message: `the project folder ${repo} has uncommitted changes (${listFiles(dirty.map((line) => line.slice(3)))}); nothing was merged`,
          details: { files: dirty.slice(0, 50).map((line) => line.slice(3)), fix: 'commit or stash the changes in the project folder, then merge again' },
        });
      }
      const checkedOutHere = (await this.currentBranch(repo)) === row.baseBranch;
      await this.refuseBaseCheckedOutElsewhere(repo, row);
      const oldTip = await this.git.text(['rev-parse', '--verify', `${refOf(row.branch)}^{commit}`], repo);
      const pending = await this.pendingCommit(row, task, request.commitPending, 'merge', oldTip);
      const branchTip = pending?.commit ?? oldTip;
      const committedPending = pending !== undefined;
      const base = { taskId, branch: row.branch, baseBranch: row.baseBranch, squash: Boolean(request.squash), committedPending };
      if ((await this.git.run(['merge-base', '--is-ancestor', branchTip, baseTip], repo, { okCodes: [1] })).exitCode === 0) {
        return { ...base, committedPending: false, outcome: 'already_merged', commit: baseTip, files: [] };
      }
      const merged = await this.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseTip, branchTip], repo, { okCodes: [1] });
      const [tree, ...conflicted] = merged.stdout.trim().split('\n');
      if (merged.exitCode === 1) {
        throw new SvcError({
          code: 'merge_conflict',
          message: `task ${taskId}'s branch ${row.branch} conflicts with ${row.baseBranch} in ${listFiles(conflicted)}; nothing was merged${committedPending ? ' and nothing was committed' : ''}`,
          details: { files: conflicted, fix: `resolve it in the task (e.g. ask it to rebase on ${row.baseBranch}), then merge again` },
        });
      }
      // A squash that already landed leaves nothing to add: re-running it changes nothing.
      if (tree === (await this.git.text(['rev-parse', `${baseTip}^{tree}`], repo))) return { ...base, committedPending: false, outcome: 'already_merged', commit: baseTip, files: [] };
      const files = (await this.git.text(['diff', '--name-only', '--no-renames', baseTip, tree!], repo)).split('\n').filter(Boolean);
      if (checkedOutHere) await this.refuseOverwritingUntracked(repo, baseTip, tree!, taskId);
      const message = request.message ?? `${request.squash ? 'Squash' : 'Merge'} task ${taskId}: ${task.title} (${row.branch})`;
      const parents = request.squash ? ['-p', baseTip] : ['-p', baseTip, '-p', branchTip];
      const commit = await this.git.text(['commit-tree', tree!, ...parents, '-F', '-'], repo, { stdin: `${message}\n` });
      // Every check passed: the pending work lands on the task's branch, then the base moves; a
      // failure moving the base puts the branch and the worktree's index back as they were.
      if (pending) await this.landPending(repo, row, oldTip, pending);
      try {
        if (checkedOutHere) await this.fastForwardProjectFolder(repo, baseTip, commit);
        // The base is not checked out here: move its ref, only if nobody moved it meanwhile.
        else await this.git.run(['update-ref', '-m', `svc: merge task ${taskId}`, refOf(row.baseBranch), commit, baseTip], repo);
      } catch (error) {
        if (pending) await this.undoPending(repo, row, oldTip, pending);
        throw error;
      }
      this.store.markMerged(taskId, commit);
      return { ...base, outcome: 'merged', commit, files };
    });
    // The base moved: every open task of the project is compared with its new tip.
    if (result.outcome === 'merged') await this.checkOverlaps(row.projectId).catch(() => undefined);
    return result;
  }

  /**
   * The project folder (on the base branch) fast-forwards to the merge. A failure part way (the
   * branch's ref could not be locked after git updated the files) puts its index and files back.
   */
  private async fastForwardProjectFolder(repo: string, baseTip: string, commit: string): Promise<void> {
    try {
      await this.git.run(['merge', '--ff-only', '--quiet', commit], repo, { contentFilters: true });
    } catch (error) {
      const head = await this.git.text(['rev-parse', 'HEAD'], repo);
      const indexMoved = (await this.git.run(['diff', '--cached', '--quiet', baseTip, '--'], repo, { okCodes: [1] })).exitCode === 1;
      if (head === baseTip && indexMoved) await this.git.run(['read-tree', '-m', '-u', commit, baseTip], repo, { contentFilters: true });
      throw error;
    }
  }

  /** A base branch checked out in a worktree other than the project folder is not moved under it. */
  private async refuseBaseCheckedOutElsewhere(repo: string, row: TaskWorktree): Promise<void> {
    const list = (await this.git.text(['worktree', 'list', '--porcelain'], repo)).split('\n\n');
    const elsewhere = list
      .map((entry) => ({ path: /^worktree (.*)$/m.exec(entry)?.[1], branch: /^branch (.*)$/m.exec(entry)?.[1] }))
      .filter((entry) => entry.branch === refOf(row.baseBranch) && entry.path !== undefined && realOrSelf(entry.path) !== realOrSelf(repo));
    if (elsewhere.length === 0) return;
    const where = elsewhere.map((entry) => entry.path!);
    throw new SvcError({
      code: 'base_branch_checked_out',
      message: `${row.baseBranch} is checked out in another worktree (${where.join(', ')}); moving it there would leave that checkout behind its branch, so nothing was merged`,
      details: { branch: row.baseBranch, worktrees: where, fix: `check out another branch in ${where[0]} (or remove that worktree), or merge from there: git merge ${row.branch}` },
    });
  }

  /** Files the merge adds that the project folder already holds outside git (untracked or ignored) would be replaced: refused. */
  private async refuseOverwritingUntracked(repo: string, baseTip: string, tree: string, taskId: number): Promise<void> {
    const added = (await this.git.text(['diff', '--name-only', '--no-renames', '--diff-filter=A', '-z', baseTip, tree], repo)).split('\0').filter(Boolean);
    const present = added.filter((path) => {
      try {
        lstatSync(join(repo, path));
        return true;
      } catch {
        return false;
      }
    });
    if (present.length === 0) return;
    throw new SvcError({
      code: 'merge_would_overwrite_files',
      message: `merging task ${taskId} would replace ${present.length} file${present.length === 1 ? '' : 's'} of the project folder that git does not track (${listFiles(present)}); nothing was merged`,
      details: { files: present.slice(0, 50), fix: `move ${present.length === 1 ? 'it' : 'them'} out of the project folder (or commit ${present.length === 1 ? 'it' : 'them'}), then merge again` },
    });
  }

  /**
   * Removes the task's worktree. What only it holds (uncommitted changes, untracked files, ignored
   * files other than unchanged `.worktreeinclude` copies) is refused unless the person confirms
   * (`force`), or commits the changes first (`commitPending`); the worktree is archived before
   * anything is removed (`restore` brings it back). Its branch stays while it has commits the base
   * lacks, unless the person deletes it naming the tip they were shown (`expectTip`), so nothing
   * unseen is lost. A refusal changes nothing.
   */
  async discard(taskId: number, request: { deleteBranch?: boolean; expectTip?: string; commitPending?: boolean; dryRun?: boolean; force?: boolean } = {}): Promise<DiscardResult> {
    const { row, repo, task } = this.requireRow(taskId);
    if (!request.dryRun && this.options.domain.executions.liveForTask(taskId)) throw this.options.domain.executions.alreadyRunning(taskId);
    return this.withLock(repo, async () => {
      const branchExists = await this.branchExists(repo, row.branch);
      const live = row.state !== 'REMOVED' && existsSync(row.worktreePath);
      const held = live ? (await this.archive.survey(row.worktreePath, repo, taskId)).holdings : { uncommitted: [], untracked: [], ignored: [] };
      const dirty = held.uncommitted.length + held.untracked.length > 0;
      let unmergedCommits = branchExists ? await this.unmergedCommits(repo, row) : [];
      const result = { taskId, branch: row.branch, worktreeRemoved: false, branchDeleted: false, unmergedCommits, committedPending: false, held, archived: false };
      if (request.dryRun) return { ...result, committedPending: dirty };
      if (!request.force && holdingsCount(atRisk(held, request.commitPending)) > 0) throw wouldLose(task, row, atRisk(held, request.commitPending));
      if (request.deleteBranch && branchExists && (unmergedCommits.length > 0 || (request.commitPending && dirty))) {
        const tip = await this.git.text(['rev-parse', refOf(row.branch)], repo);
        if (!request.expectTip || !tip.startsWith(request.expectTip) || request.expectTip.length < 7) {
          throw new SvcError({
            code: 'confirmation_required',
            message: `deleting ${row.branch} loses ${unmergedCommits.length} commit${unmergedCommits.length === 1 ? '' : 's'} not in ${row.baseBranch}; nothing was removed`,
            details: { commits: unmergedCommits, tip, fix: `look at the commits, then repeat with the tip to confirm (expectTip ${tip.slice(0, 12)})` },
          });
        }
      }
      const committedPending = request.commitPending && dirty ? await this.settlePending(row, task, true, 'discard') : false;
      if (committedPending) unmergedCommits = await this.unmergedCommits(repo, row);
      // The archive exists whole before anything is removed; the worktree then leaves its place in
      // one rename, so a kill leaves either the worktree as it was or its archive.
      let archived = false;
      if (live) {
        await this.archive.write({ taskId, projectId: row.projectId, branch: row.branch, baseBranch: row.baseBranch, worktree: row.worktreePath, repo });
        archived = true;
        // A folder left by an earlier discard a kill interrupted was archived before it was moved there.
        rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
        renameSync(row.worktreePath, discardingPath(row.worktreePath));
      }
      await this.removeWorktree(repo, row);
      rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
      let branchDeleted = false;
      if (request.deleteBranch && branchExists) {
        await this.git.run(['branch', '-D', '--', row.branch], repo);
        branchDeleted = true;
      }
      this.store.markRemoved(taskId);
      return { ...result, worktreeRemoved: true, branchDeleted, unmergedCommits, committedPending, archived };
    });
  }

  /**
   * Refuses, naming the files, a discard that would drop what only the worktree holds and the person
   * did not confirm (`force`): for a caller that must know before it stops the task's execution.
   */
  async refuseLosing(taskId: number, request: { commitPending?: boolean; force?: boolean } = {}): Promise<void> {
    if (request.force) return;
    const { row, repo, task } = this.requireRow(taskId);
    if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) return;
    const held = atRisk((await this.archive.survey(row.worktreePath, repo, taskId)).holdings, request.commitPending);
    if (holdingsCount(held) > 0) throw wouldLose(task, row, held);
  }

  /**
   * Brings a discarded or collected worktree back from its newest archive, exactly: the branch at the
   * archived tip (from the archive's bundle when it was deleted), the staged changes, and every file
   * git did not hold, byte for byte. Re-runnable after a kill; refused when the task has a worktree.
   */
  async restore(taskId: number): Promise<RestoreResult> {
    const task = this.options.domain.tasks.get(taskId);
    const repo = this.options.domain.projects.get(task.projectId).repoPath;
    return this.withLock(repo, async () => {
      const entry = this.archive.latest(taskId);
      const row = this.store.get(taskId);
      const live = row !== undefined && row.state === 'ACTIVE' && existsSync(row.worktreePath) && (await this.isRegisteredWorktree(repo, row.worktreePath));
      if (!entry || !row) {
        throw new SvcError({
          code: 'nothing_to_restore',
          message: `task ${taskId} has no archived worktree (archives are kept ${ARCHIVE_RETENTION_DAYS} days after a discard or collection)`,
          details: { taskId, fix: live ? 'its worktree is there already: svc task worktree ' + taskId : 'start the task again to get a fresh worktree from its branch' },
        });
      }
      const { manifest } = entry;
      const answer = { taskId, branch: manifest.branch, worktreePath: manifest.worktreePath, files: manifest.files.length, archivedAt: manifest.archivedAt };
      if (live && entry.restored) return { ...answer, outcome: 'already_restored' as const };
      if (live && !this.archive.isRestoring(entry)) {
        throw new SvcError({
          code: 'worktree_exists',
          message: `task ${taskId} has a worktree already (${row.worktreePath}); restoring its archive of ${manifest.archivedAt} would overwrite it, so nothing was changed`,
          details: { taskId, fix: `discard the current worktree first (svc task discard ${taskId}), then restore` },
        });
      }
      await this.git.ensureUsable();
      const tip = await this.tipOf(repo, manifest.branch);
      if (tip !== undefined && tip !== manifest.tip) {
        throw new SvcError({
          code: 'task_branch_moved',
          message: `task ${taskId}'s branch ${manifest.branch} moved since its worktree was archived (${manifest.tip.slice(0, 12)} → ${tip.slice(0, 12)}); nothing was restored`,
          details: { taskId, archivedTip: manifest.tip, tip, fix: `put the branch back (git branch -f ${manifest.branch} ${manifest.tip.slice(0, 12)}) to restore the archive, or start the task to work from the branch as it is` },
        });
      }
      this.archive.mark(entry, 'restoring');
      if (tip === undefined) await this.recreateBranch(repo, entry);
      this.store.begin({ taskId, projectId: row.projectId, branch: manifest.branch, baseBranch: manifest.baseBranch, worktreePath: manifest.worktreePath });
      rmSync(discardingPath(manifest.worktreePath), { recursive: true, force: true });
      await this.addWorktree(repo, manifest.worktreePath, ['-f', manifest.worktreePath, manifest.branch]);
      // From the branch's tip (a kill may have left a half checkout or a half restore), then the archive.
      await this.git.run(['read-tree', '--reset', '-u', 'HEAD'], manifest.worktreePath, { contentFilters: true });
      if (readFileSync(join(entry.folder, 'staged.patch')).length > 0) {
        await this.git.run(['apply', '--cached', '--binary', join(entry.folder, 'staged.patch')], manifest.worktreePath);
      }
      for (const path of manifest.files) {
        const target = join(manifest.worktreePath, path);
        if (relative(manifest.worktreePath, target).startsWith(`..${sep}`)) continue;
        mkdirSync(dirname(target), { recursive: true });
        rmSync(target, { force: true });
        cpSync(join(entry.folder, 'files', path), target, { preserveTimestamps: true, verbatimSymlinks: true });
      }
      for (const path of manifest.deleted) rmSync(join(manifest.worktreePath, path), { force: true });
      this.store.activate(taskId, row.baseCommit ?? manifest.tip);
      this.archive.mark(entry, 'restored');
      return { ...answer, outcome: 'restored' as const };
    });
  }

  /** The archived branch back: from its tip when git still has the commit, else from the archive's bundle. */
  private async recreateBranch(repo: string, entry: ArchiveEntry): Promise<void> {
    const { manifest } = entry;
    const known = await this.git.run(['cat-file', '-e', `${manifest.tip}^{commit}`], repo, { okCodes: [1, 128] });
    if (known.exitCode !== 0) {
      if (!manifest.bundle) {
        throw new SvcError({
          code: 'nothing_to_restore',
          message: `task ${manifest.taskId}'s branch ${manifest.branch} and its commit ${manifest.tip.slice(0, 12)} are gone from ${repo}`,
          details: { fix: 'start the task again to get a fresh worktree' },
        });
      }
      await this.git.run(['bundle', 'unbundle', join(entry.folder, 'branch.bundle')], repo);
    }
    await this.git.run(['update-ref', '-m', `svc: restore task ${manifest.taskId}`, refOf(manifest.branch), manifest.tip, ''], repo);
  }

  /** Before a task is deleted: its worktree goes (uncommitted work committed to its branch first, the rest archived), its branch stays. */
  async forget(taskId: number): Promise<void> {
    const row = this.store.get(taskId);
    if (!row || (row.state === 'REMOVED' && !existsSync(row.worktreePath))) return;
    await this.discard(taskId, { commitPending: true, force: true });
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

  /**
   * Worktrees of tasks done, cancelled (or gone) for longer than the retention are removed (their
   * uncommitted changes committed to their branches, the rest archived); branches stay. A worktree
   * holding ignored files a person may have written (a hand-edited `.env`) is kept unless `force`.
   * Archives older than the archive retention are pruned.
   */
  async collect(request: { dryRun?: boolean; retentionDays?: number; force?: boolean } = {}): Promise<{ removed: number[]; candidates: number[]; kept: KeptWorktree[]; skipped: CollectSkip[]; archivesPruned: number; disk: WorktreeDiskUse[] }> {
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
    const kept: KeptWorktree[] = [];
    const skipped: CollectSkip[] = [];
    for (const taskId of candidates) {
      if (request.dryRun) {
        const preview = await this.discard(taskId, { dryRun: true }).catch(() => undefined);
        if (preview && preview.held.ignored.length > 0 && !request.force) kept.push({ taskId, files: preview.held.ignored });
        continue;
      }
      // One worktree that cannot go (a git failure, a folder in use) does not stop the others; one
      // holding files a person may have written stays until the person confirms.
      try {
        await this.discard(taskId, { commitPending: true, ...(request.force ? { force: true } : {}) });
        removed.push(taskId);
      } catch (error) {
        if (SvcError.hasCode(error) && error.code === 'worktree_has_unsaved_files') kept.push({ taskId, files: ((error as SvcError).details as { files?: string[] } | undefined)?.files ?? [] });
        else skipped.push({ taskId, code: SvcError.hasCode(error) ? error.code : 'internal', message: SvcError.hasCode(error) ? error.message : 'the worktree could not be removed' });
      }
    }
    const archivesPruned = request.dryRun ? 0 : this.archive.prune();
    return { removed, candidates, kept, skipped, archivesPruned, disk: this.diskUse() };
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
   * The project's git truth, the one place overlaps and conflicts are computed: for each open task,
   * the files its committed work would conflict in with its base branch's current tip, and the pairs
   * of open tasks whose branches changed the same files (and which of those would conflict). All by
   * `merge-tree` on commits: no working tree is touched. Records both; `fresh` holds the pairs new or
   * changed since the last check, `newBaseConflicts` the tasks that now conflict with their base
   * (each also a `task_conflicts_with_base` domain event, once per base tip and set of files).
   */
  async checkOverlaps(projectId: number): Promise<GitTruth> {
    const project = this.options.domain.projects.get(projectId);
    const repo = project.repoPath;
    const open = this.store
      .list({ projectId, states: ['ACTIVE'] })
      .filter((row) => {
        const task = safeTask(this.options.domain, row.taskId);
        return task !== undefined && !CLOSED_STATUSES.has(task.status);
      });
    const tips: { row: TaskWorktree; tip: string; baseTip: string }[] = [];
    for (const row of open) {
      const tip = await this.tipOf(repo, row.branch);
      const baseTip = await this.tipOf(repo, row.baseBranch);
      if (tip && baseTip) tips.push({ row, tip, baseTip });
    }
    // Nothing moved since the last computation: the same answer, nothing new to report.
    const signature = JSON.stringify(tips.map(({ row, tip, baseTip }) => [row.taskId, tip, baseTip]));
    const cached = this.truths.get(projectId);
    if (cached?.signature === signature) return { ...cached.truth, fresh: [], newBaseConflicts: [] };
    const changed = new Map<number, { tip: string; files: Set<string> }>();
    const baseConflicts: BaseConflict[] = [];
    const newBaseConflicts: BaseConflict[] = [];
    for (const { row, tip, baseTip } of tips) {
      const files = (await this.git.text(['diff', '--name-only', '--no-renames', `${baseTip}...${tip}`], repo)).split('\n').filter(Boolean);
      changed.set(row.taskId, { tip, files: new Set(files) });
      const conflicts = files.length === 0 ? [] : await this.conflictsBetween(repo, baseTip, tip);
      const conflict = { taskId: row.taskId, baseBranch: row.baseBranch, baseTip, files: conflicts };
      if (conflicts.length > 0) baseConflicts.push(conflict);
      if (this.store.setBaseConflicts(row.taskId, conflicts, baseTip) && conflicts.length > 0) {
        newBaseConflicts.push(conflict);
        this.options.domain.events.append({
          type: 'task_conflicts_with_base',
          dedupKey: `task_conflicts_with_base:${row.taskId}:${baseTip}:${conflicts.join(',')}`,
          payload: { taskId: row.taskId, projectId, baseBranch: row.baseBranch, baseTip, files: conflicts, summary: baseConflictSummary(conflict) },
        });
      }
    }
    const overlaps: TaskOverlap[] = [];
    const fresh: TaskOverlap[] = [];
    const keep = new Set<string>();
    const ids = [...changed.keys()].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = changed.get(ids[i]!)!;
        const b = changed.get(ids[j]!)!;
        const files = [...a.files].filter((file) => b.files.has(file)).sort();
        if (files.length === 0) continue;
        const conflicts = await this.conflictsBetween(repo, a.tip, b.tip);
        const overlap: TaskOverlap = { taskA: ids[i]!, taskB: ids[j]!, files, conflicts, detectedAt: new Date().toISOString() };
        overlaps.push(overlap);
        keep.add(`${overlap.taskA}:${overlap.taskB}`);
        if (this.store.recordOverlap(overlap.taskA, overlap.taskB, files, conflicts, JSON.stringify([files, conflicts]))) fresh.push(overlap);
      }
    }
    // Pairs no longer open or no longer overlapping (a task merged, closed or rebased) are forgotten.
    this.store.clearOverlapsExcept(projectId, keep);
    const truth = { overlaps, fresh, baseConflicts, newBaseConflicts };
    this.truths.set(projectId, { signature, truth });
    return truth;
  }

  /**
   * A task's row, overlaps and conflicts with its base as they are now (the same computation as
   * `svc project overlaps`), for `svc task worktree`, its HTTP answer and the review.
   */
  async truthOf(taskId: number): Promise<{ worktree: TaskWorktree | undefined; overlaps: TaskOverlap[]; open: boolean }> {
    const task = this.options.domain.tasks.get(taskId);
    const row = this.store.get(taskId);
    if (!row) return { worktree: undefined, overlaps: [], open: false };
    const project = this.options.domain.projects.get(task.projectId);
    if (row.state !== 'ACTIVE' || CLOSED_STATUSES.has(task.status) || !isRepositoryRoot(project.repoPath)) return { worktree: row, overlaps: [], open: false };
    // git unusable here (missing, the repository moved): the last recorded answer, rather than no page.
    const truth = await this.checkOverlaps(task.projectId).catch(() => undefined);
    const overlaps = truth ? truth.overlaps.filter((overlap) => overlap.taskA === taskId || overlap.taskB === taskId) : this.store.overlapsOf(taskId);
    return { worktree: this.store.get(taskId), overlaps, open: true };
  }

  /** The files the task's committed work would conflict in with its base's tip: from the project's git truth while the task is open. */
  private async conflictsWithBaseOf(taskId: number, repo: string, row: TaskWorktree): Promise<string[]> {
    const truth = await this.truthOf(taskId);
    if (truth.open) return truth.worktree?.conflictsWithBase ?? [];
    const [tip, baseTip] = [await this.tipOf(repo, row.branch), await this.tipOf(repo, row.baseBranch)];
    return tip && baseTip ? this.conflictsBetween(repo, baseTip, tip) : [];
  }

  private async tipOf(repo: string, branch: string): Promise<string | undefined> {
    const found = await this.git.run(['rev-parse', '--verify', '--quiet', `${refOf(branch)}^{commit}`], repo, { okCodes: [1] });
    return found.exitCode === 0 ? found.stdout.trim() : undefined;
  }

  /** The files a merge of two commits would conflict in (empty: it merges cleanly). */
  private async conflictsBetween(repo: string, ours: string, theirs: string): Promise<string[]> {
    const merged = await this.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], repo, { okCodes: [1] });
    return merged.exitCode === 1 ? [...new Set(merged.stdout.trim().split('\n').slice(1).filter(Boolean))].sort() : [];
  }

  /** Projects with an open task in a worktree: the ones the background check visits (its base may move under it). */
  projectsWithOpenWorktrees(): number[] {
    const projects = new Set<number>();
    for (const row of this.store.list({ states: ['ACTIVE'] })) {
      const task = safeTask(this.options.domain, row.taskId);
      if (task && !CLOSED_STATUSES.has(task.status)) projects.add(row.projectId);
    }
    return [...projects].sort((a, b) => a - b);
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
      // Removed by hand, collected, or a start a kill interrupted: the branch is there, re-attach it
      // (a discard a kill interrupted may have left the old folder beside it, archived).
      rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
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
    // What was copied is recorded, so a discard can tell a copy the person edited from one untouched.
    this.archive.recordCopies(task.id, row.worktreePath, copyIncludedFiles(repo, row.worktreePath, await this.ignoredFiles(repo)));
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
    const oldTip = await this.git.text(['rev-parse', '--verify', `${refOf(row.branch)}^{commit}`], this.options.domain.projects.get(row.projectId).repoPath);
    const pending = await this.pendingCommit(row, task, commitPending, action, oldTip);
    if (!pending) return false;
    await this.landPending(this.options.domain.projects.get(row.projectId).repoPath, row, oldTip, pending);
    return true;
  }

  /**
   * The worktree's uncommitted work as a commit object on top of the branch tip, made through a copy
   * of its index: no ref, index or file changes. Undefined when nothing is pending; refused (naming
   * the files) when something is and the person did not ask to commit it.
   */
  private async pendingCommit(row: TaskWorktree, task: TaskRecord, commitPending: boolean | undefined, action: 'merge' | 'discard', tip: string): Promise<PendingCommit | undefined> {
    if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) return undefined;
    // Discarding a worktree whose `.git` an agent repointed stays possible (git runs against the git
    // directory svc made either way); landing from it is refused.
    const repointedWorktree = action === 'discard' ? 'proceed' : 'refuse';
    const pending = (await this.git.run(['status', '--porcelain'], row.worktreePath, { repointedWorktree })).stdout.split('\n').filter(Boolean);
    if (pending.length === 0) return undefined;
    if (!commitPending) {
      throw new SvcError({
        code: 'task_has_uncommitted_changes',
        message: `task ${task.id}'s worktree has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}; nothing was ${action === 'merge' ? 'merged' : 'removed'}`,
        details: { files: pending.slice(0, 50).map((line) => line.slice(3)), fix: `repeat with --commit-pending to commit them to ${row.branch} first, or let the task commit them` },
      });
    }
    const index = await this.git.text(['rev-parse', '--path-format=absolute', '--git-path', 'index'], row.worktreePath, { repointedWorktree });
    const scratch = join(this.options.svcHome, 'tmp');
    mkdirSync(scratch, { recursive: true, mode: 0o700 });
    // Copies a killed run left behind (an hour is far longer than any use of one).
    for (const name of readdirSync(scratch)) {
      const path = join(scratch, name);
      if (name.startsWith('index-') && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
    }
    const copy = join(scratch, `index-${row.taskId}-${process.pid}-${Date.now()}`);
    try {
      if (existsSync(index)) cpSync(index, copy);
      const env = { GIT_INDEX_FILE: copy };
      // The person's filter drivers (Git LFS) run, as for any commit of pending work.
      if (!existsSync(index)) await this.git.run(['read-tree', tip], row.worktreePath, { env, repointedWorktree });
      await this.git.run(['add', '-A'], row.worktreePath, { env, repointedWorktree, contentFilters: true });
      const tree = await this.git.text(['write-tree'], row.worktreePath, { env, repointedWorktree });
      const commit = await this.git.text(['commit-tree', tree, '-p', tip, '-F', '-'], row.worktreePath, { repointedWorktree, stdin: `Pending changes of task ${task.id}: ${task.title}\n` });
      return { commit, indexPath: index, indexBefore: existsSync(index) ? readFileSync(index) : undefined, repointedWorktree };
    } finally {
      rmSync(copy, { force: true });
    }
  }

  /** Moves the task's branch to the pending commit (only from `oldTip`) and its worktree's index with it. */
  private async landPending(repo: string, row: TaskWorktree, oldTip: string, pending: PendingCommit): Promise<void> {
    await this.git.run(['update-ref', '-m', `svc: pending changes of task ${row.taskId}`, refOf(row.branch), pending.commit, oldTip], repo);
    await this.git.run(['read-tree', '--reset', 'HEAD'], row.worktreePath, { repointedWorktree: pending.repointedWorktree });
  }

  /** Puts the branch and the worktree's index back as they were before `landPending`. */
  private async undoPending(repo: string, row: TaskWorktree, oldTip: string, pending: PendingCommit): Promise<void> {
    await this.git.run(['update-ref', '-m', `svc: merge of task ${row.taskId} failed`, refOf(row.branch), oldTip, pending.commit], repo);
    if (pending.indexBefore) writeFileAtomic(pending.indexPath, pending.indexBefore);
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

/** "task 2 now conflicts with main in app.js". */
export function baseConflictSummary(conflict: Pick<BaseConflict, 'taskId' | 'baseBranch' | 'files'>): string {
  return `task ${conflict.taskId} now conflicts with ${conflict.baseBranch} in ${listFiles(conflict.files)}`;
}

function refOf(branch: string): string {
  return `refs/heads/${branch}`;
}

/** Where a worktree being discarded waits, out of its place, until it is deleted. */
function discardingPath(worktreePath: string): string {
  return `${worktreePath}.discarding`;
}

/** What a discard would lose from the worktree: all it holds, less what --commit-pending takes to the branch. */
function atRisk(held: WorktreeHoldings, commitPending: boolean | undefined): WorktreeHoldings {
  return commitPending ? { uncommitted: [], untracked: [], ignored: held.ignored } : held;
}

/** The refusal of a discard that would lose what only the worktree holds, naming the files. */
function wouldLose(task: TaskRecord, row: TaskWorktree, held: WorktreeHoldings): SvcError {
  const files = holdingsList(held);
  const changes = held.uncommitted.length + held.untracked.length;
  const what =
    changes > 0
      ? `${changes} uncommitted change${changes === 1 ? '' : 's'}${held.ignored.length > 0 ? ` and ${held.ignored.length} ignored file${held.ignored.length === 1 ? '' : 's'} git does not keep` : ''}`
      : `${held.ignored.length} ignored file${held.ignored.length === 1 ? '' : 's'} git does not keep`;
  const code = changes > 0 ? 'task_has_uncommitted_changes' : 'worktree_has_unsaved_files';
  return new SvcError({
    code,
    message: `task ${task.id}'s worktree holds ${what} (${listFiles(files)}); nothing was removed`,
    details: {
      files: files.slice(0, 200),
      uncommitted: held.uncommitted.slice(0, 200),
      untracked: held.untracked.slice(0, 200),
      ignored: held.ignored.slice(0, 200),
      fix: `${changes > 0 ? `commit the changes to ${row.branch} first (--commit-pending), or ` : ''}confirm with --force: the worktree is archived for ${ARCHIVE_RETENTION_DAYS} days (svc task restore ${task.id} brings it back)`,
    },
  });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
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
