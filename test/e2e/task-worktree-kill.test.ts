// A kill -9 at any moment of creating, merging or discarding a task's worktree leaves the project's
// repository consistent (`git fsck` clean) and the operation re-runnable to the same result. The
// `svc` processes are killed at spread delays, so the kills land before, inside and after git's work.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, GIT_TEST_ENV, makeRepo, writeFiles } from '../support/git-repo.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let repo: string;
const KILL_DELAYS_MS = [250, 450, 650, 850, 1100, 1400];

const ok = (args: string[]) => svcOk(svc, args);

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = makeRepo(join(svc.home, 'repo'), { 'README.md': '# demo\n' });
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
}, 60_000);

afterAll(() => svc.cleanup());

/** Starts `svc <args>` and kills it with SIGKILL after `delayMs` (or lets it finish first). */
async function killDuring(args: string[], delayMs: number): Promise<void> {
  const child = svc.start(args, { env: GIT_TEST_ENV });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
  await exited;
  clearTimeout(timer);
}

function fsckClean(): void {
  // Dangling objects are not damage (an interrupted merge may leave a tree nobody points at).
  expect(git(repo, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
}

async function settle(args: string[]): Promise<string> {
  for (const delay of KILL_DELAYS_MS) {
    await killDuring(args, delay);
    fsckClean();
  }
  const result = await svc.run([...args, '--json'], { env: GIT_TEST_ENV, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} after the kills: ${result.stderr}`);
  fsckClean();
  return result.stdout;
}

test('kill -9 during create, merge (plain and squash) and discard: fsck stays clean and each re-run completes', async () => {
  for (const [round, squash] of [[1, false], [2, true]] as const) {
    const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', `Round ${round}`, '--project', 'demo']))![1]);

    const created = JSON.parse(await settle(['task', 'worktree', String(taskId), '--create']));
    expect(created.worktree).toMatchObject({ state: 'ACTIVE', branch: `svc/${taskId}-round-${round}` });
    const worktree = created.worktree.worktreePath as string;
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(created.worktree.branch);
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line === `worktree ${worktree}`)).toHaveLength(1);

    writeFiles(worktree, { [`round-${round}.txt`]: `round ${round}\n` });
    const tip = commitAll(worktree, `round ${round}`);
    const mainBefore = git(repo, 'rev-parse', 'main');
    const merged = JSON.parse(await settle(['task', 'merge', String(taskId), ...(squash ? ['--squash'] : [])]));
    expect(merged.outcome === 'merged' || merged.outcome === 'already_merged').toBe(true);
    expect(readFileSync(join(repo, `round-${round}.txt`), 'utf8')).toBe(`round ${round}\n`);
    // Exactly one commit landed on main, however many runs were killed.
    expect(git(repo, 'rev-list', '--count', `${mainBefore}..main`)).toBe(squash ? '1' : '2');
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const discarded = JSON.parse(await settle(['task', 'discard', String(taskId)]));
    expect(discarded).toMatchObject({ worktreeRemoved: true, branchDeleted: false });
    expect(existsSync(worktree)).toBe(false);
    expect(git(repo, 'rev-parse', created.worktree.branch)).toBe(tip);
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(worktree);
  }
}, 300_000);
