// Through real `svc` processes: `svc project overlaps` and `svc task worktree` answer from one
// computation (before and after a merge moves the base, when the other task now conflicts with it);
// and a kill -9 at any moment of `svc task discard --force` or `svc task restore` loses nothing: after
// each kill `git fsck` is clean and every file the worktree held is byte-identical in the worktree
// or in its archive, and the re-run ends with the worktree back exactly.
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, GIT_TEST_ENV, makeRepo, writeFiles } from '../support/git-repo.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox, waitFor } from '../support/svc-process.js';

let svc: SvcSandbox;
let repo: string;
/** Kills land at these fractions of how long an uninterrupted run took (measured first). */
const KILL_AT = [0.5, 0.7, 0.85, 0.95];

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));
const createTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo']))![1]);

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = makeRepo(join(svc.home, 'repo'), { 'README.md': '# demo\n', 'app.js': 'one\ntwo\nthree\n', '.gitignore': '.env\n', '.worktreeinclude': '.env\n' });
  writeFiles(repo, { '.env': 'TOKEN=person\n' });
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
}, 60_000);

afterAll(() => svc.cleanup());

test('svc project overlaps and svc task worktree give the same answer, and after a merge both say task 2 conflicts with main', async () => {
  const [a, b] = [await createTask('Shout'), await createTask('Whisper')];
  const wa = (await json(['task', 'worktree', String(a), '--create'])).worktree.worktreePath as string;
  const wb = (await json(['task', 'worktree', String(b), '--create'])).worktree.worktreePath as string;
  writeFiles(wa, { 'app.js': 'one\nTWO\nthree\n' });
  commitAll(wa, 'shout');
  writeFiles(wb, { 'app.js': 'one\n(two)\nthree\n' });
  commitAll(wb, 'whisper');

  // The task's page first, before anything recorded an overlap: it computes, it does not remember.
  const fromTask = (await json(['task', 'worktree', String(b)])).overlaps;
  const fromProject = await json(['project', 'overlaps', 'demo']);
  const strip = (items: { detectedAt?: string }[]) => items.map(({ detectedAt: _, ...rest }) => rest);
  expect(strip(fromTask)).toEqual([{ taskA: a, taskB: b, files: ['app.js'], conflicts: ['app.js'] }]);
  expect(strip(fromProject)).toEqual(strip(fromTask));
  expect(await ok(['task', 'worktree', String(b)])).toContain(`overlaps task ${a}: app.js (would conflict: app.js)`);

  await ok(['task', 'merge', String(a)]);
  const after = await json(['task', 'worktree', String(b)]);
  expect(after.overlaps).toEqual([]);
  expect(after.worktree.conflictsWithBase).toEqual(['app.js']);
  expect(await json(['project', 'overlaps', 'demo'])).toEqual([]);
  expect(await ok(['project', 'overlaps', 'demo'])).toContain(`task ${b} conflicts with main in app.js`);
  expect(await ok(['task', 'worktree', String(b)])).toContain('conflicts with main in app.js');
  const db = new Database(join(svc.home, 'svc.db'), { readonly: true });
  const events = db.prepare("SELECT payload FROM domain_events WHERE type = 'task_conflicts_with_base'").all() as { payload: string }[];
  db.close();
  expect(events.map((event) => JSON.parse(event.payload).summary)).toEqual([`task ${b} now conflicts with main in app.js`]);
  await ok(['task', 'discard', String(b), '--force']);
}, 120_000);

/**
 * Starts `svc <args>` and kills it with SIGKILL after `delayMs` (or lets it finish first). A git that
 * svc had started goes on alone, as after a real crash: the checks wait until it has ended, so they
 * read what the crash left and not a git still writing.
 */
async function killDuring(args: string[], delayMs: number): Promise<void> {
  const child = svc.start(args, { env: GIT_TEST_ENV });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
  await exited;
  clearTimeout(timer);
  await waitFor(() => (orphanGits().length === 0 ? true : undefined), 30_000, 'the gits svc left running to end');
}

/** The git processes still working in the repository or under the service's home. */
function orphanGits(): number[] {
  const roots = [realpathSync(repo), realpathSync(svc.home)];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'git') return false;
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return roots.some((root) => cwd === root || cwd.startsWith(`${root}/`) || argv.includes(root));
      } catch {
        return false;
      }
    })
    .map(Number);
}

function fsckClean(): void {
  expect(git(repo, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
}

test('kill -9 during discard and restore: fsck stays clean, every file is in the worktree or its archive, and the re-run restores it byte for byte', async () => {
  const taskId = await createTask('Keep my env');
  const worktree = (await json(['task', 'worktree', String(taskId), '--create'])).worktree.worktreePath as string;
  writeFiles(worktree, { 'feature.js': 'committed\n' });
  commitAll(worktree, 'feature');
  const held: Record<string, Buffer> = {
    '.env': Buffer.from('TOKEN=typed by hand\n'),
    'app.js': Buffer.from('one\nuncommitted\nthree\n'),
    'notes/draft.md': Buffer.from('untracked\n'),
    'data.bin': Buffer.from([0, 255, 10, 13, 0]),
  };
  for (const [path, bytes] of Object.entries(held)) {
    writeFiles(worktree, { [path]: '' });
    writeFileSync(join(worktree, path), bytes);
  }
  const everyFileKept = () => {
    for (const [path, bytes] of Object.entries(held)) {
      const inWorktree = existsSync(join(worktree, path)) && readFileSync(join(worktree, path)).equals(bytes);
      const inArchive = archiveHolds(taskId, path, bytes);
      expect(inWorktree || inArchive, `${path} is neither in the worktree nor in its archive`).toBe(true);
    }
  };

  // One uninterrupted round trip first: it must be exact, and it tells how long each step takes here.
  const timed = async (args: string[]) => {
    const started = Date.now();
    const result = await svc.run([...args, '--json'], { env: GIT_TEST_ENV, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    return Date.now() - started;
  };
  const discardMs = await timed(['task', 'discard', String(taskId), '--force']);
  expect(existsSync(worktree)).toBe(false);
  everyFileKept();
  const restoreMs = await timed(['task', 'restore', String(taskId)]);
  for (const [path, bytes] of Object.entries(held)) expect(readFileSync(join(worktree, path)).equals(bytes), path).toBe(true);

  for (const at of KILL_AT) {
    await killDuring(['task', 'discard', String(taskId), '--force'], Math.round(discardMs * at));
    fsckClean();
    everyFileKept();
  }
  const discarded = await svc.run(['task', 'discard', String(taskId), '--force', '--json'], { env: GIT_TEST_ENV, timeoutMs: 60_000 });
  expect(discarded.code, discarded.stderr).toBe(0);
  expect(existsSync(worktree)).toBe(false);
  fsckClean();
  everyFileKept();

  for (const at of KILL_AT) {
    await killDuring(['task', 'restore', String(taskId)], Math.round(restoreMs * at));
    fsckClean();
    everyFileKept();
  }
  const restored = await svc.run(['task', 'restore', String(taskId), '--json'], { env: GIT_TEST_ENV, timeoutMs: 60_000 });
  expect(restored.code, restored.stderr).toBe(0);
  expect(['restored', 'already_restored']).toContain(JSON.parse(restored.stdout).outcome);
  for (const [path, bytes] of Object.entries(held)) expect(readFileSync(join(worktree, path)).equals(bytes), path).toBe(true);
  expect(git(worktree, 'status', '--porcelain').split('\n')).toEqual(['M app.js', '?? data.bin', '?? notes/']);
  expect(git(worktree, 'log', '-1', '--format=%s')).toBe('feature');
  fsckClean();
}, 240_000);

/** Whether a whole archive of the task (one with its manifest) holds `path` with exactly these bytes. */
function archiveHolds(taskId: number, path: string, bytes: Buffer): boolean {
  const root = join(svc.home, 'archive', String(taskId));
  if (!existsSync(root)) return false;
  return readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'manifest.json')))
    .some((name) => existsSync(join(root, name, 'files', path)) && readFileSync(join(root, name, 'files', path)).equals(bytes));
}
