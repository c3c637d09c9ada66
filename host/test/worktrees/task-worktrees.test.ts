import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { branchName, matchesIncludeFile, TaskWorktrees } from '../../src/features/worktrees/index.js';
import { commitAll, git, GIT_TEST_ENV, makeRepo, writeFiles } from '../../../test/support/git-repo.js';

let dir: string;
let db: Db;
let domain: Domain;
let worktrees: TaskWorktrees;
let repo: string;
let projectId: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-worktrees-'));
  db = openDatabase(join(dir, 'svc.db'));
  domain = new Domain(db, { signals: { setUnattended: () => undefined } });
  worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } });
  repo = makeRepo(join(dir, 'repo'), { 'README.md': '# demo\n', 'src/app.txt': 'one\ntwo\nthree\n' });
  const workspace = domain.workspaces.create({ name: 'main' });
  projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const newTask = (title: string) => domain.tasks.create({ projectId, title }).id;
const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (SvcError.hasCode(error)) return { code: error.code, details: (error as SvcError).details as Record<string, unknown> | undefined };
    throw error;
  }
  throw new Error('expected a coded error');
};

describe('task worktrees', () => {
  test('a git project isolates by default; a task gets its own branch and worktree from the current branch', async () => {
    expect(worktrees.isolationOf(projectId).effective).toBe('worktree');
    const id = newTask('Fix the Login page!');
    const prepared = await worktrees.prepare(id);
    expect(prepared.cwd).toBe(join(dir, 'home', 'worktrees', String(projectId), String(id)));
    expect(git(prepared.cwd, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(`svc/${id}-fix-the-login-page`);
    const row = worktrees.get(id)!;
    expect(row).toMatchObject({ state: 'ACTIVE', baseBranch: 'main', baseCommit: git(repo, 'rev-parse', 'main') });
    // Twice is the same worktree.
    expect((await worktrees.prepare(id)).cwd).toBe(prepared.cwd);
  });

  test('two tasks see only their own changes, and the diff counts committed and uncommitted work', async () => {
    const a = await worktrees.prepare(newTask('a'));
    const b = await worktrees.prepare(newTask('b'));
    writeFiles(a.cwd, { 'src/app.txt': 'one\nTWO\nthree\n' });
    commitAll(a.cwd, 'a edits app');
    writeFiles(a.cwd, { 'notes.md': 'new\n' });
    expect(readFileSync(join(b.cwd, 'src/app.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(existsSync(join(b.cwd, 'notes.md'))).toBe(false);
    const diff = await worktrees.diff(a.worktree!.taskId);
    expect(diff.files).toEqual([
      { path: 'notes.md', status: 'added', additions: 1, deletions: 0, binary: false },
      { path: 'src/app.txt', status: 'modified', additions: 1, deletions: 1, binary: false },
    ]);
    expect(diff.uncommitted).toBe(true);
    expect(diff.patch).toContain('+TWO');
    expect(diff.patch).toContain('+new');
    expect((await worktrees.diff(b.worktree!.taskId)).files).toEqual([]);
  });

  test('merge refuses pending work unless asked, lands a merge commit, and is re-runnable', async () => {
    const id = newTask('merge me');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'src/app.txt': 'one\ntwo\nthree\nfour\n' });
    expect((await codeOf(worktrees.merge(id))).code).toBe('task_has_uncommitted_changes');
    expect(git(repo, 'rev-list', '--count', 'main')).toBe('1');
    const merged = await worktrees.merge(id, { commitPending: true });
    expect(merged).toMatchObject({ outcome: 'merged', committedPending: true, files: ['src/app.txt'] });
    expect(readFileSync(join(repo, 'src/app.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(git(repo, 'rev-list', '--parents', '-n', '1', 'main').split(' ')).toHaveLength(3);
    expect((await worktrees.merge(id)).outcome).toBe('already_merged');
  });

  test('a squash lands one commit with one parent; again it changes nothing', async () => {
    const id = newTask('squash me');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'x.txt': '1\n' });
    commitAll(cwd, 'one');
    writeFiles(cwd, { 'y.txt': '2\n' });
    commitAll(cwd, 'two');
    const merged = await worktrees.merge(id, { squash: true, message: 'Add x and y' });
    expect(merged.outcome).toBe('merged');
    expect(git(repo, 'log', '-1', '--format=%s %P', 'main').split(' ')).toHaveLength(5);
    expect(git(repo, 'log', '-1', '--format=%s', 'main')).toBe('Add x and y');
    const again = await worktrees.merge(id, { squash: true });
    expect(again.outcome).toBe('already_merged');
    expect(git(repo, 'rev-list', '--count', 'main')).toBe('2');
  });

  test('a conflicting merge changes nothing on either side and names the files', async () => {
    const id = newTask('conflict');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'src/app.txt': 'one\ntask\nthree\n' });
    const taskTip = commitAll(cwd, 'task edit');
    writeFiles(repo, { 'src/app.txt': 'one\nmain\nthree\n' });
    const mainTip = commitAll(repo, 'main edit');
    const refused = await codeOf(worktrees.merge(id));
    expect(refused.code).toBe('merge_conflict');
    expect(refused.details?.files).toEqual(['src/app.txt']);
    expect(git(repo, 'rev-parse', 'main')).toBe(mainTip);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(taskTip);
    expect(git(cwd, 'status', '--porcelain')).toBe('');
  });

  test('a dirty project folder refuses the merge', async () => {
    const id = newTask('dirty');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'new.txt': 'x\n' });
    commitAll(cwd, 'x');
    writeFiles(repo, { 'README.md': 'edited by a person\n' });
    const refused = await codeOf(worktrees.merge(id));
    expect(refused.code).toBe('project_folder_dirty');
    expect(refused.details?.files).toEqual(['README.md']);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('edited by a person\n');
  });

  test('discard keeps a branch with unmerged commits, and deletes it only with the tip that was shown', async () => {
    const id = newTask('discard me');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'work.txt': 'precious\n' });
    const tip = commitAll(cwd, 'precious work');
    const kept = await worktrees.discard(id);
    expect(kept).toMatchObject({ worktreeRemoved: true, branchDeleted: false, unmergedCommits: [{ sha: tip, subject: 'precious work' }] });
    expect(existsSync(cwd)).toBe(false);
    expect(git(repo, 'rev-parse', branchName({ id, title: 'discard me' }))).toBe(tip);
    expect((await worktrees.branches({ unmerged: true })).map((b) => b.branch)).toEqual([`svc/${id}-discard-me`]);
    expect((await codeOf(worktrees.discard(id, { deleteBranch: true }))).code).toBe('confirmation_required');
    expect(git(repo, 'rev-parse', `svc/${id}-discard-me`)).toBe(tip);
    expect((await worktrees.discard(id, { deleteBranch: true, expectTip: tip.slice(0, 12) })).branchDeleted).toBe(true);
    expect(git(repo, 'branch', '--list', 'svc/*')).toBe('');
  });

  test('a worktree removed by hand is made again from its branch on the next start', async () => {
    const id = newTask('by hand');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'kept.txt': 'k\n' });
    commitAll(cwd, 'kept');
    rmSync(cwd, { recursive: true, force: true });
    const again = await worktrees.prepare(id);
    expect(again.cwd).toBe(cwd);
    expect(readFileSync(join(cwd, 'kept.txt'), 'utf8')).toBe('k\n');
  });

  test('bad repositories get coded errors and nothing half-made', async () => {
    const plain = join(dir, 'plain');
    makeRepo(plain);
    rmSync(join(plain, '.git'), { recursive: true, force: true });
    const other = domain.projects.create({ workspaceId: domain.workspaces.list()[0]!.id, name: 'plain', repoPath: plain });
    expect(worktrees.isolationOf(other.id).effective).toBe('none');
    expect((await codeOf(worktrees.setIsolation(other.id, { isolation: 'worktree' }))).code).toBe('not_a_repository');
    expect((await worktrees.prepare(domain.tasks.create({ projectId: other.id, title: 't' }).id)).cwd).toBe(plain);

    expect((await codeOf(worktrees.setIsolation(projectId, { baseBranch: 'nope' }))).code).toBe('base_branch_not_found');
    git(repo, 'checkout', '--quiet', '--detach');
    expect((await codeOf(worktrees.prepare(newTask('detached')))).code).toBe('detached_head');
    git(repo, 'checkout', '--quiet', 'main');
    const taken = newTask('taken');
    git(repo, 'branch', branchName({ id: taken, title: 'taken' }));
    expect((await codeOf(worktrees.prepare(taken))).code).toBe('task_branch_taken');
    expect(worktrees.get(taken)).toBeUndefined();
    writeFileSync(join(repo, '.gitmodules'), '[submodule "x"]\n');
    expect((await codeOf(worktrees.prepare(newTask('submodules')))).code).toBe('repository_has_submodules');
  });

  test('.worktreeinclude copies ignored files in; a failing set-up command undoes the new worktree', async () => {
    writeFiles(repo, { '.gitignore': '.env\nlocal/\n*.log\n', '.worktreeinclude': '.env\nlocal/\n' });
    commitAll(repo, 'ignore');
    writeFiles(repo, { '.env': 'TOKEN=x\n', 'local/config.json': '{}\n', 'debug.log': 'no\n' });
    await worktrees.setIsolation(projectId, { setupCommand: 'echo set up here; test -f .env' });
    const ok = await worktrees.prepare(newTask('with env'));
    expect(readFileSync(join(ok.cwd, '.env'), 'utf8')).toBe('TOKEN=x\n');
    expect(existsSync(join(ok.cwd, 'local/config.json'))).toBe(true);
    expect(existsSync(join(ok.cwd, 'debug.log'))).toBe(false);
    expect(ok.setupOutput).toContain('set up here');

    await worktrees.setIsolation(projectId, { setupCommand: 'echo failing on purpose; exit 3' });
    const id = newTask('broken setup');
    const failed = await codeOf(worktrees.prepare(id));
    expect(failed.code).toBe('worktree_setup_failed');
    expect(failed.details?.output).toContain('failing on purpose');
    expect(existsSync(join(dir, 'home', 'worktrees', String(projectId), String(id)))).toBe(false);
    expect(git(repo, 'branch', '--list', `svc/${id}-*`)).toBe('');
  });

  test('overlap: conflicting edits and shared files are found, disjoint edits are not', async () => {
    const [a, b, c] = [newTask('a'), newTask('b'), newTask('c')];
    const wa = (await worktrees.prepare(a)).cwd;
    const wb = (await worktrees.prepare(b)).cwd;
    const wc = (await worktrees.prepare(c)).cwd;
    writeFiles(wa, { 'src/app.txt': 'one\nA\nthree\n' });
    commitAll(wa, 'a');
    writeFiles(wb, { 'src/app.txt': 'one\nB\nthree\n' });
    commitAll(wb, 'b');
    writeFiles(wc, { 'other.txt': 'c\n' });
    commitAll(wc, 'c');
    const first = await worktrees.checkOverlaps(projectId);
    expect(first.overlaps).toEqual([expect.objectContaining({ taskA: a, taskB: b, files: ['src/app.txt'], conflicts: ['src/app.txt'] })]);
    expect(first.fresh).toHaveLength(1);
    expect((await worktrees.checkOverlaps(projectId)).fresh).toEqual([]);
    expect(worktrees.store.overlapsOf(c)).toEqual([]);
  });

  test('collect removes worktrees of tasks done longer than the retention and keeps their branches', async () => {
    const id = newTask('done long ago');
    const { cwd } = await worktrees.prepare(id);
    writeFiles(cwd, { 'left.txt': 'uncommitted\n' });
    domain.tasks.moveTo(id, 'DONE');
    expect((await worktrees.collect({ retentionDays: 7 })).candidates).toEqual([]);
    const dry = await worktrees.collect({ retentionDays: 0, dryRun: true });
    expect(dry.candidates).toEqual([id]);
    expect(dry.disk[0]).toMatchObject({ projectId, worktrees: 1 });
    expect(dry.disk[0]!.bytes).toBeGreaterThan(0);
    expect(existsSync(cwd)).toBe(true);
    expect((await worktrees.collect({ retentionDays: 0 })).removed).toEqual([id]);
    expect(existsSync(cwd)).toBe(false);
    expect(git(repo, 'show', `svc/${id}-done-long-ago:left.txt`)).toBe('uncommitted');
  });
});

test('.worktreeinclude reads gitignore syntax', () => {
  const rules = '# local\n.env\nconfig/*.local.json\n/top.txt\n**/secrets/\n!.env.example\n';
  expect(matchesIncludeFile(rules, '.env')).toBe(true);
  expect(matchesIncludeFile(rules, 'sub/.env')).toBe(true);
  expect(matchesIncludeFile(rules, 'config/db.local.json')).toBe(true);
  expect(matchesIncludeFile(rules, 'config/deep/db.local.json')).toBe(false);
  expect(matchesIncludeFile(rules, 'top.txt')).toBe(true);
  expect(matchesIncludeFile(rules, 'sub/top.txt')).toBe(false);
  expect(matchesIncludeFile(rules, 'a/b/secrets/key')).toBe(true);
  expect(matchesIncludeFile(rules, '.env.example')).toBe(false);
});
