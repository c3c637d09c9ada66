// Creating a task's worktree (branch, worktree, row, .worktreeinclude, through the process
// supervisor) on a 10,000-file repository, beside `git worktree add` alone in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@svc-org/host/platform/db';
import { Domain } from '@svc-org/host/features/domain';
import { TaskWorktrees } from '@svc-org/host/features/worktrees';
import { GIT_TEST_ENV } from '../support/git-repo.js';
import { median, type BenchResult } from './bench-result.js';

const RUNS = Number(process.env.SVC_BENCH_WORKTREE_RUNS ?? 5);
const FILES = 10_000;

export async function worktreeBenchmarks(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-worktree-'));
  const env = { ...process.env, ...GIT_TEST_ENV };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '--quiet', '--initial-branch=main');
    for (let d = 0; d < FILES / 100; d++) {
      mkdirSync(join(repo, `dir${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(repo, `dir${d}`, `file${f}.txt`), `file ${d}/${f}\n`);
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'ten thousand files');

    const db = openDatabase(join(dir, 'svc.db'));
    const domain = new Domain(db, { signals: { setUnattended: () => undefined } });
    const worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: env });
    const project = domain.projects.create({ workspaceId: domain.workspaces.create({ name: 'bench' }).id, name: 'big', repoPath: repo });
    await worktrees.git.ensureUsable();
    // Interleaved, so a busy machine slows both sides alike.
    const baseline: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const path = join(dir, 'plain', String(i));
      let started = process.hrtime.bigint();
      const result = spawnSync('git', ['worktree', 'add', '--quiet', '-b', `plain-${i}`, path, 'main'], { cwd: repo, env });
      baseline.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.status !== 0) throw new Error(`git worktree add: ${result.stderr}`);
      git(repo, 'worktree', 'remove', '--force', path);
      const taskId = domain.tasks.create({ projectId: project.id, title: `bench ${i}` }).id;
      started = process.hrtime.bigint();
      const prepared = await worktrees.prepare(taskId);
      ours.push(Number(process.hrtime.bigint() - started) / 1e6);
      git(repo, 'worktree', 'remove', '--force', prepared.cwd);
    }
    db.close();
    const [o, b] = [median(ours), median(baseline)];
    return [
      {
        name: `task worktree creation on a ${FILES.toLocaleString('en')}-file repository, median of ${RUNS}`,
        unit: 'ms',
        ours: o,
        baseline: b,
        baselineName: 'git worktree add',
        ratio: o / b,
        goal: '≤ 2×',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
