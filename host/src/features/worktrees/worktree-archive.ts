// What only a task's worktree holds (uncommitted changes, untracked files, ignored files other than
// unchanged `.worktreeinclude` copies, whose digests are recorded when copied), and the archive that keeps it for seven days after the
// worktree is removed: `$SVC_HOME/archive/<task>/<time>/` with a bundle of the branch's own commits,
// the staged diff, a byte copy of every file git does not hold, and a manifest. An archive is written
// under a temporary name and renamed into place, so it exists whole or not at all.
import { closeSync, cpSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import type { GitRunner } from './git-runner.js';
import { matchesIncludeFile, parseIncludeFile } from './worktree-include.js';

export const ARCHIVE_RETENTION_DAYS = 7;

/** A worktree whose `.git` an agent repointed is still archived (git runs against svc's git directory). */
const IN_WORKTREE = { repointedWorktree: 'proceed' } as const;

/** What a worktree holds that its branch does not, by kind (paths relative to the worktree). */
export interface WorktreeHoldings {
  /** Tracked files changed, staged or deleted and not committed. */
  uncommitted: string[];
  /** Files git does not track and does not ignore. */
  untracked: string[];
  /** Ignored files that are not an unchanged copy `.worktreeinclude` made (a hand-edited `.env`). */
  ignored: string[];
}

export interface ArchiveManifest {
  version: 1;
  taskId: number;
  projectId: number;
  branch: string;
  baseBranch: string;
  /** The branch's tip when archived: the worktree's HEAD. */
  tip: string;
  worktreePath: string;
  archivedAt: string;
  /** Copied byte for byte into `files/` (working-tree content of changed, untracked and ignored files). */
  files: string[];
  /** Tracked files the worktree had deleted. */
  deleted: string[];
  /** The branch's own commits are in `branch.bundle` (absent when the base holds them all). */
  bundle: boolean;
  holdings: WorktreeHoldings;
}

export interface ArchiveEntry {
  taskId: number;
  folder: string;
  manifest: ArchiveManifest;
  restored: boolean;
}

export function holdingsCount(holdings: WorktreeHoldings): number {
  return holdings.uncommitted.length + holdings.untracked.length + holdings.ignored.length;
}

export function holdingsList(holdings: WorktreeHoldings): string[] {
  return [...holdings.uncommitted, ...holdings.untracked, ...holdings.ignored];
}

export class WorktreeArchive {
  constructor(
    private readonly git: GitRunner,
    private readonly svcHome: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get root(): string {
    return join(this.svcHome, 'archive');
  }

  /**
   * The worktree's state as git and the disk see it: what only it holds, and every file an archive
   * must copy to bring it back (the held files plus the unchanged include copies; folders git
   * ignores whole and `.worktreeinclude` does not name, such as dependencies and build output, are
   * neither held nor copied).
   */
  async survey(worktree: string, repo: string, taskId?: number): Promise<{ holdings: WorktreeHoldings; copy: string[]; deleted: string[] }> {
    const status = (await this.git.run(['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all'], worktree, IN_WORKTREE)).stdout.split('\0').filter(Boolean);
    const uncommitted: string[] = [];
    const untracked: string[] = [];
    const deleted: string[] = [];
    const copy: string[] = [];
    for (const entry of status) {
      const code = entry.slice(0, 2);
      const path = entry.slice(3);
      if (code === '??') {
        untracked.push(path);
        copy.push(path);
        continue;
      }
      uncommitted.push(path);
      if (exists(join(worktree, path))) copy.push(path);
      else deleted.push(path);
    }
    const includeFile = [join(worktree, '.worktreeinclude'), join(repo, '.worktreeinclude')].find(exists);
    const rules = includeFile ? parseIncludeFile(readFileSync(includeFile, 'utf8')) : [];
    const included = (path: string) => rules.length > 0 && matchesIncludeFile('', path, rules);
    const copies = taskId === undefined ? {} : this.copiesOf(taskId);
    // An unchanged copy: the bytes `.worktreeinclude` copied in (or, for a worktree made before that
    // was recorded, the project folder's file).
    const unchangedCopy = (path: string) =>
      included(path) && (copies[path] !== undefined ? copies[path] === digestOf(join(worktree, path)) : sameFile(join(worktree, path), join(repo, path)));
    const ignoredEntries = (await this.git.run(['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'], worktree, IN_WORKTREE)).stdout.split('\0').filter(Boolean);
    const ignored: string[] = [];
    for (const entry of ignoredEntries) {
      const files = entry.endsWith('/') ? filesUnder(worktree, entry.slice(0, -1)).filter(included) : [entry];
      for (const path of files) {
        if (!isFileOrLink(join(worktree, path))) continue;
        copy.push(path);
        if (!unchangedCopy(path)) ignored.push(path);
      }
    }
    return { holdings: { uncommitted: uncommitted.sort(), untracked: untracked.sort(), ignored: ignored.sort() }, copy: [...new Set(copy)].sort(), deleted: deleted.sort() };
  }

  /** Writes the archive of a worktree about to be removed; it appears whole (a rename) or not at all. */
  async write(input: { taskId: number; projectId: number; branch: string; baseBranch: string; worktree: string; repo: string }): Promise<ArchiveEntry> {
    const { holdings, copy, deleted } = await this.survey(input.worktree, input.repo, input.taskId);
    const tip = await this.git.text(['rev-parse', '--verify', 'HEAD^{commit}'], input.worktree, IN_WORKTREE);
    const taskFolder = join(this.root, String(input.taskId));
    mkdirSync(taskFolder, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(taskFolder)) if (name.startsWith('.tmp-')) rmSync(join(taskFolder, name), { recursive: true, force: true });
    const at = this.now();
    const temporary = join(taskFolder, `.tmp-${at.getTime()}-${process.pid}`);
    mkdirSync(join(temporary, 'files'), { recursive: true, mode: 0o700 });
    for (const path of copy) {
      const target = join(temporary, 'files', path);
      if (relative(join(temporary, 'files'), target).startsWith(`..${sep}`)) continue;
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(input.worktree, path), target, { preserveTimestamps: true, verbatimSymlinks: true });
    }
    // Written by git straight to the files: a large change never passes through this process.
    await this.git.run(['diff', '--cached', '--binary', '--no-renames', `--output=${join(temporary, 'staged.patch')}`], input.worktree, IN_WORKTREE);
    await this.git.run(['diff', '--binary', '--no-renames', `--output=${join(temporary, 'unstaged.patch')}`], input.worktree, IN_WORKTREE);
    const baseTip = await this.git.run(['rev-parse', '--verify', '--quiet', `refs/heads/${input.baseBranch}^{commit}`], input.repo, { okCodes: [1] });
    const own = baseTip.exitCode === 0 ? Number(await this.git.text(['rev-list', '--count', `${baseTip.stdout.trim()}..${tip}`], input.repo)) : 1;
    if (own > 0) {
      const exclude = baseTip.exitCode === 0 ? [`^${baseTip.stdout.trim()}`] : [];
      await this.git.run(['bundle', 'create', '--quiet', join(temporary, 'branch.bundle'), `refs/heads/${input.branch}`, ...exclude], input.repo);
    }
    const manifest: ArchiveManifest = {
      version: 1,
      taskId: input.taskId,
      projectId: input.projectId,
      branch: input.branch,
      baseBranch: input.baseBranch,
      tip,
      worktreePath: input.worktree,
      archivedAt: at.toISOString(),
      files: copy,
      deleted,
      bundle: own > 0,
      holdings,
    };
    writeFileAtomic(join(temporary, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    syncTree(temporary);
    const folder = join(taskFolder, String(at.getTime()));
    renameSync(temporary, folder);
    syncFolder(taskFolder);
    return { taskId: input.taskId, folder, manifest, restored: false };
  }

  /** Records the digest of each file `.worktreeinclude` copied into a new worktree. */
  recordCopies(taskId: number, worktree: string, paths: string[]): void {
    const folder = join(this.svcHome, 'worktree-copies');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const digests = Object.fromEntries(paths.map((path) => [path, digestOf(join(worktree, path))]));
    writeFileAtomic(join(folder, `${taskId}.json`), `${JSON.stringify(digests)}\n`);
  }

  private copiesOf(taskId: number): Record<string, string> {
    try {
      return JSON.parse(readFileSync(join(this.svcHome, 'worktree-copies', `${taskId}.json`), 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  /** The newest whole archive of a task, if any. */
  latest(taskId: number): ArchiveEntry | undefined {
    return this.list(taskId).at(-1);
  }

  /** Whole archives (oldest first): of one task, or of all. */
  list(taskId?: number): ArchiveEntry[] {
    if (!existsSync(this.root)) return [];
    const tasks = taskId === undefined ? readdirSync(this.root).filter((name) => /^\d+$/.test(name)) : [String(taskId)];
    const out: ArchiveEntry[] = [];
    for (const task of tasks) {
      const taskFolder = join(this.root, task);
      if (!existsSync(taskFolder)) continue;
      for (const name of readdirSync(taskFolder).filter((entry) => /^\d+$/.test(entry)).sort((a, b) => Number(a) - Number(b))) {
        const folder = join(taskFolder, name);
        try {
          const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as ArchiveManifest;
          out.push({ taskId: Number(task), folder, manifest, restored: existsSync(join(folder, 'restored')) });
        } catch {
          // not a whole archive
        }
      }
    }
    return out;
  }

  /** Marks an archive as the source of a restore in progress, then as restored. */
  mark(entry: ArchiveEntry, state: 'restoring' | 'restored'): void {
    writeFileAtomic(join(entry.folder, state), `${this.now().toISOString()}\n`);
    if (state === 'restored') rmSync(join(entry.folder, 'restoring'), { force: true });
  }

  isRestoring(entry: ArchiveEntry): boolean {
    return existsSync(join(entry.folder, 'restoring'));
  }

  /** Archives older than the retention go (a rename out of sight first, so a kill leaves no half archive). */
  prune(retentionDays = ARCHIVE_RETENTION_DAYS): number {
    const cutoff = this.now().getTime() - retentionDays * 86_400_000;
    let pruned = 0;
    for (const entry of this.list()) {
      if (Date.parse(entry.manifest.archivedAt) >= cutoff) continue;
      const doomed = join(dirname(entry.folder), `.tmp-pruned-${entry.folder.split(sep).pop()}`);
      renameSync(entry.folder, doomed);
      rmSync(doomed, { recursive: true, force: true });
      pruned++;
    }
    if (existsSync(this.root)) {
      for (const task of readdirSync(this.root)) {
        const folder = join(this.root, task);
        try {
          if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
        } catch {
          // not a folder
        }
      }
    }
    return pruned;
  }
}

/** Writes a file whole: a temporary file, flushed, renamed over the target. */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  const temporary = `${path}.tmp-${process.pid}`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFileOrLink(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isFile() || stat.isSymbolicLink();
  } catch {
    return false;
  }
}

function digestOf(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return '';
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    const [sa, sb] = [lstatSync(a), lstatSync(b)];
    if (sa.isSymbolicLink() || sb.isSymbolicLink()) return sa.isSymbolicLink() && sb.isSymbolicLink() && readlinkSync(a) === readlinkSync(b);
    return sa.size === sb.size && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

/** Files (and links) under a folder of the worktree, as paths relative to the worktree. */
function filesUnder(worktree: string, folder: string): string[] {
  const out: string[] = [];
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(join(worktree, current), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = `${current}/${entry.name}`;
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile() || entry.isSymbolicLink()) out.push(path);
    }
  }
  return out;
}

/** Flushes every file of a freshly written folder, so its rename publishes data that is on disk. */
function syncTree(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) syncTree(path);
    else if (entry.isFile()) {
      const fd = openSync(path, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  syncFolder(folder);
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
