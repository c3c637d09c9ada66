// Task worktrees tell the truth of git and lose nothing: one computation of overlaps and conflicts
// with the base branch's current tip (recomputed after a merge, with an event for a task that now
// conflicts); a merge that fails at any step changes nothing (not even with --commit-pending); a
// merge never replaces a person's untracked or ignored files nor moves a base checked out elsewhere;
// discard and collection refuse to drop what only a worktree holds, archive it, and restore brings
// it back byte for byte.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { TaskWorktrees, WorktreeWatcher } from '../../src/features/worktrees/index.js';
import type { TaskOverlap } from '../../src/features/worktrees/index.js';
import { attentionFactsOf, attentionOf } from '../../src/features/lifecycle/index.js';
import { commitAll, git, GIT_TEST_ENV, makeRepo, writeFiles } from '../../../test/support/git-repo.js';

let dir: string;
let db: Db;
let domain: Domain;
let worktrees: TaskWorktrees;
let repo: string;
let projectId: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-git-truth-'));
  db = openDatabase(join(dir, 'svc.db'));
  domain = new Domain(db, { signals: { setUnattended: () => undefined } });
  worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } });
  repo = makeRepo(join(dir, 'repo'), { 'README.md': '# demo\n', 'app.js': 'one\ntwo\nthree\n', '.gitignore': '.env\nnode_modules/\n', '.worktreeinclude': '.env\n' });
  writeFiles(repo, { '.env': 'TOKEN=person\n' });
  const workspace = domain.workspaces.create({ name: 'main' });
  projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
});

afterEach(() => {
  if (existsSync(dir)) chmodSync(dir, 0o700);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const newTask = (title: string) => domain.tasks.create({ projectId, title }).id;
const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (SvcError.hasCode(error)) return { code: error.code, message: (error as SvcError).message, details: (error as SvcError).details as Record<string, unknown> | undefined };
    throw error;
  }
  throw new Error('expected a coded error');
};

/** Everything a failed command must leave as it was: refs, HEADs, indexes, files, the task's row. */
function snapshot(taskId: number, worktree: string): string {
  const files = (folder: string) =>
    git(folder, 'ls-files', '--cached', '--others', '-z')
      .split('\0')
      .filter(Boolean)
      .sort()
      .map((path) => `${path}=${existsSync(join(folder, path)) ? readFileSync(join(folder, path), 'utf8') : '(deleted)'}`);
  return JSON.stringify({
    refs: git(repo, 'for-each-ref', '--format=%(refname) %(objectname)'),
    head: git(repo, 'symbolic-ref', 'HEAD'),
    projectIndex: git(repo, 'ls-files', '--stage'),
    projectStatus: git(repo, 'status', '--porcelain', '--ignored'),
    projectFiles: files(repo),
    worktreeHead: git(worktree, 'rev-parse', 'HEAD'),
    worktreeIndex: git(worktree, 'ls-files', '--stage'),
    worktreeStatus: git(worktree, 'status', '--porcelain', '--ignored'),
    worktreeFiles: files(worktree),
    row: { ...worktrees.get(taskId), updatedAt: undefined },
  });
}

describe('git truth', () => {
  test('the service reports an overlap that another process recorded first (svc task worktree), not only those it finds itself', async () => {
    const [a, b] = [newTask('shout'), newTask('whisper')];
    for (const [id, line] of [[a, 'TWO'], [b, '(two)']] as const) {
      const { cwd } = await worktrees.prepare(id);
      writeFiles(cwd, { 'app.js': `one\n${line}\nthree\n` });
      commitAll(cwd, line);
    }
    // Another process (the CLI) computes and records the pair first.
    await new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } }).truthOf(a);
    const reported: TaskOverlap[] = [];
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
    await new WorktreeWatcher({ worktrees, logger, onOverlap: (_project, overlap) => reported.push(overlap) }).pass();
    expect(reported).toEqual([expect.objectContaining({ taskA: a, taskB: b, files: ['app.js'], conflicts: ['app.js'] })]);
  });

  test('one computation answers the task and the project alike; after a merge the other task conflicts with the base and an event says so', async () => {
    const [a, b] = [newTask('shout'), newTask('whisper')];
    const wa = (await worktrees.prepare(a)).cwd;
    const wb = (await worktrees.prepare(b)).cwd;
    writeFiles(wa, { 'app.js': 'one\nTWO\nthree\n' });
    commitAll(wa, 'shout');
    writeFiles(wb, { 'app.js': 'one\n(two)\nthree\n' });
    commitAll(wb, 'whisper');

    const project = await worktrees.checkOverlaps(projectId);
    expect(project.overlaps).toEqual([expect.objectContaining({ taskA: a, taskB: b, files: ['app.js'], conflicts: ['app.js'] })]);
    for (const id of [a, b]) expect((await worktrees.truthOf(id)).overlaps).toEqual(project.overlaps);
    expect(worktrees.get(b)!.conflictsWithBase).toEqual([]);

    await worktrees.merge(a);
    // The base moved: b is compared with main's new tip, the pair is gone (a's work is the base now).
    expect(worktrees.get(b)!.conflictsWithBase).toEqual(['app.js']);
    const after = await worktrees.checkOverlaps(projectId);
    expect(after.overlaps).toEqual([]);
    expect(after.baseConflicts).toEqual([expect.objectContaining({ taskId: b, baseBranch: 'main', files: ['app.js'] })]);
    expect((await worktrees.truthOf(b)).overlaps).toEqual([]);
    expect(worktrees.store.overlapsOf(b)).toEqual([]);
    expect((await worktrees.diff(b, { stat: true })).conflictsWithBase).toEqual(['app.js']);
    // The task's attention reads it: b now asks the person to resolve a conflict.
    const facts = attentionFactsOf(domain, worktrees.store, domain.tasks.get(b));
    expect(facts.conflicts).toEqual(['app.js']);
    expect(attentionOf(facts)).toBe('conflicts');
    const events = db.prepare("SELECT payload FROM domain_events WHERE type = 'task_conflicts_with_base'").all() as { payload: string }[];
    expect(events.map((event) => JSON.parse(event.payload))).toEqual([
      expect.objectContaining({ taskId: b, projectId, baseBranch: 'main', files: ['app.js'], summary: `task ${b} now conflicts with main in app.js` }),
    ]);
    // Checked again with nothing moved: no second event.
    await worktrees.checkOverlaps(projectId);
    await new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } }).checkOverlaps(projectId);
    expect((db.prepare("SELECT COUNT(*) AS n FROM domain_events WHERE type = 'task_conflicts_with_base'").get() as { n: number }).n).toBe(1);
  });
});

describe('a failed merge changes nothing', () => {
  test('--commit-pending with a conflict commits nothing: branch, index, files and row as before', async () => {
    const id = newTask('pending');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'app.js': 'one\ntask\nthree\n', 'new.txt': 'staged\n' });
    git(cwd, 'add', 'new.txt');
    writeFiles(repo, { 'app.js': 'one\nmain\nthree\n' });
    commitAll(repo, 'main edit');
    const before = snapshot(id, cwd);
    const refused = await codeOf(worktrees.merge(id, { commitPending: true }));
    expect(refused.code).toBe('merge_conflict');
    expect(refused.message).toContain('nothing was committed');
    expect(snapshot(id, cwd)).toBe(before);
    expect(git(repo, 'log', '--format=%s', `svc/${id}-pending`)).toBe('initial');
  });

  test('a refusal at each later step (project folder dirty, task branch locked, base locked) leaves everything as it was', async () => {
    const id = newTask('steps');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'feature.txt': 'pending work\n', 'app.js': 'one\ntwo\nthree\nfour\n' });
    git(cwd, 'add', 'feature.txt');
    const branch = `svc/${id}-steps`;

    writeFiles(repo, { 'README.md': 'edited by a person\n' });
    let before = snapshot(id, cwd);
    expect((await codeOf(worktrees.merge(id, { commitPending: true }))).code).toBe('project_folder_dirty');
    expect(snapshot(id, cwd)).toBe(before);
    git(repo, 'checkout', '--quiet', '--', 'README.md');

    // A ref git cannot lock fails the step that moves it; what moved before it moves back.
    for (const lock of [`refs/heads/${branch}.lock`, 'refs/heads/main.lock']) {
      const file = join(repo, '.git', lock);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '');
      before = snapshot(id, cwd);
      expect((await codeOf(worktrees.merge(id, { commitPending: true }))).code).toBe('git_failed');
      expect(snapshot(id, cwd)).toBe(before);
      rmSync(file);
    }
    const merged = await worktrees.merge(id, { commitPending: true });
    expect(merged).toMatchObject({ outcome: 'merged', committedPending: true });
    expect(git(cwd, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(repo, 'feature.txt'), 'utf8')).toBe('pending work\n');
  });
});

describe('a merge never touches what the person has', () => {
  test('a file the merge would add over an ignored or untracked file of the project folder is refused, naming it', async () => {
    const id = newTask('env');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { '.env': 'TOKEN=agent\n', 'notes.txt': 'agent notes\n' });
    git(cwd, 'add', '-f', '.env', 'notes.txt');
    git(cwd, 'commit', '--quiet', '-m', 'agent env');
    writeFiles(repo, { 'notes.txt': 'my own notes\n' });
    const mainTip = git(repo, 'rev-parse', 'main');
    const refused = await codeOf(worktrees.merge(id));
    expect(refused.code).toBe('merge_would_overwrite_files');
    expect(refused.details?.files).toEqual(['.env', 'notes.txt']);
    expect(refused.details?.fix).toEqual(expect.any(String));
    expect(readFileSync(join(repo, '.env'), 'utf8')).toBe('TOKEN=person\n');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('my own notes\n');
    expect(git(repo, 'rev-parse', 'main')).toBe(mainTip);
    rmSync(join(repo, 'notes.txt'));
    rmSync(join(repo, '.env'));
    expect((await worktrees.merge(id)).outcome).toBe('merged');
  });

  test('a base branch checked out in another worktree is not moved under it', async () => {
    const id = newTask('elsewhere');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'feature.txt': 'x\n' });
    commitAll(cwd, 'feature');
    git(repo, 'checkout', '--quiet', '-b', 'dev');
    const other = join(dir, 'other-checkout');
    git(repo, 'worktree', 'add', '--quiet', other, 'main');
    const mainTip = git(repo, 'rev-parse', 'main');
    const refused = await codeOf(worktrees.merge(id));
    expect(refused.code).toBe('base_branch_checked_out');
    expect(refused.details?.worktrees).toEqual([other]);
    expect(git(repo, 'rev-parse', 'main')).toBe(mainTip);
    expect(git(other, 'status', '--porcelain')).toBe('');
    // The normal case still works: the base checked out in the project folder fast-forwards it.
    git(repo, 'worktree', 'remove', other);
    git(repo, 'checkout', '--quiet', 'main');
    expect((await worktrees.merge(id)).outcome).toBe('merged');
    expect(readFileSync(join(repo, 'feature.txt'), 'utf8')).toBe('x\n');
  });
});

describe('nothing a person wrote is lost', () => {
  test('discard lists a hand-edited ignored .env, refuses without --force, archives, and restore brings all back byte for byte', async () => {
    const id = newTask('discard me');
    const { cwd } = await worktrees.prepare(id);
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('TOKEN=person\n');
    writeFiles(cwd, { 'kept.txt': 'committed\n' });
    const tip = commitAll(cwd, 'committed work');
    // An unchanged copy of .worktreeinclude is nothing only the worktree holds.
    expect((await worktrees.discard(id, { dryRun: true })).held).toEqual({ uncommitted: [], untracked: [], ignored: [] });
    // The person's own .env changes later: the worktree's untouched copy is still no file of its own.
    writeFiles(repo, { '.env': 'TOKEN=rotated\n' });
    expect((await worktrees.discard(id, { dryRun: true })).held.ignored).toEqual([]);
    writeFiles(cwd, { '.env': 'TOKEN=edited by hand\n', 'app.js': 'one\nstaged\nthree\n', 'scratch/idea.md': 'untracked\n', 'node_modules/x/index.js': 'regenerable\n' });
    git(cwd, 'add', 'app.js');
    writeFiles(cwd, { 'app.js': 'one\nstaged\nthree\nand unstaged\n', 'binary.bin': '' });
    writeFileSync(join(cwd, 'binary.bin'), Buffer.from([0, 1, 2, 255, 254]));
    rmSync(join(cwd, 'README.md'));
    const before = snapshot(id, cwd);

    const refused = await codeOf(worktrees.discard(id, { commitPending: true }));
    expect(refused.code).toBe('worktree_has_unsaved_files');
    expect(refused.details?.files).toEqual(['.env']);
    expect(refused.details?.fix).toContain('--force');
    const plain = await codeOf(worktrees.discard(id));
    expect(plain.code).toBe('task_has_uncommitted_changes');
    expect(plain.details?.files).toEqual(['README.md', 'app.js', 'binary.bin', 'scratch/idea.md', '.env']);
    expect(snapshot(id, cwd)).toBe(before);

    const discarded = await worktrees.discard(id, { force: true });
    expect(discarded).toMatchObject({ worktreeRemoved: true, archived: true, committedPending: false, held: { ignored: ['.env'] } });
    expect(existsSync(cwd)).toBe(false);
    expect(readdirSync(join(dir, 'home', 'archive', String(id)))).toHaveLength(1);

    const restored = await worktrees.restore(id);
    expect(restored).toMatchObject({ outcome: 'restored', branch: `svc/${id}-discard-me`, worktreePath: cwd });
    // Folders git ignores whole (dependencies, build output) are not archived: the set-up command makes them.
    expect(existsSync(join(cwd, 'node_modules'))).toBe(false);
    writeFiles(cwd, { 'node_modules/x/index.js': 'regenerable\n' });
    expect(snapshot(id, cwd).replace(/"state":"[A-Z]+"/, '')).toBe(before.replace(/"state":"[A-Z]+"/, ''));
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('TOKEN=edited by hand\n');
    expect(readFileSync(join(cwd, 'binary.bin'))).toEqual(Buffer.from([0, 1, 2, 255, 254]));
    expect(git(cwd, 'diff', '--cached', '--name-only')).toBe('app.js');
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(tip);
    expect(worktrees.get(id)!.state).toBe('ACTIVE');
    expect((await worktrees.restore(id)).outcome).toBe('already_restored');
    expect((await codeOf(worktrees.restore(newTask('never discarded')))).code).toBe('nothing_to_restore');
  });

  test('a deleted branch comes back with the worktree; collection keeps a worktree with a hand-edited .env unless forced, and prunes archives after 7 days', async () => {
    const id = newTask('collect me');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'work.txt': 'w\n' });
    const tip = commitAll(cwd, 'work');
    await worktrees.discard(id, { deleteBranch: true, expectTip: tip });
    expect(git(repo, 'branch', '--list', 'svc/*')).toBe('');
    await worktrees.restore(id);
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(tip);
    expect(readFileSync(join(cwd, 'work.txt'), 'utf8')).toBe('w\n');

    writeFiles(cwd, { '.env': 'TOKEN=mine\n' });
    domain.tasks.moveTo(id, 'DONE');
    const dry = await worktrees.collect({ retentionDays: 0, dryRun: true });
    expect(dry.kept).toEqual([{ taskId: id, files: ['.env'] }]);
    const kept = await worktrees.collect({ retentionDays: 0 });
    expect(kept).toMatchObject({ removed: [], kept: [{ taskId: id, files: ['.env'] }] });
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('TOKEN=mine\n');
    expect((await worktrees.collect({ retentionDays: 0, force: true })).removed).toEqual([id]);
    expect(existsSync(cwd)).toBe(false);
    expect(worktrees.archive.list(id).filter((entry) => !entry.restored)).toHaveLength(1);

    const later = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV }, now: () => new Date(Date.now() + 8 * 86_400_000) });
    expect((await later.collect({ retentionDays: 0 })).archivesPruned).toBe(2);
    expect(existsSync(join(dir, 'home', 'archive', String(id)))).toBe(false);
  });
  test('an edit git cannot tell from its index by size and time is still committed with the pending work', async () => {
    const id = newTask('same size');
    const { cwd } = await worktrees.prepare(id);
    // Git compares whole seconds and the size: an edit of the same size in the second the index was
    // written is told apart only by git's racy-entry check, which reads the index file's own time.
    git(cwd, 'config', 'core.checkStat', 'minimal');
    const index = git(cwd, 'rev-parse', '--path-format=absolute', '--git-path', 'index');
    git(cwd, 'update-index', '--refresh');
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(join(cwd, 'app.js'), second, second);
    git(cwd, 'update-index', '--refresh');
    writeFileSync(join(cwd, 'app.js'), 'one\nTWO\nthree\n');
    utimesSync(join(cwd, 'app.js'), second, second);
    utimesSync(index, second, second);

    const merged = await worktrees.merge(id, { commitPending: true });
    expect(merged).toMatchObject({ committedPending: true });
    expect(git(repo, 'show', 'HEAD:app.js')).toBe('one\nTWO\nthree');
  });
});
