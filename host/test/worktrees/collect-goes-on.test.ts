import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { TaskWorktrees } from '../../src/features/worktrees/index.js';
import { GIT_TEST_ENV, makeRepo } from '../../../test/support/git-repo.js';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-collect-'));
  db = openDatabase(join(dir, 'svc.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('collection keeps a worktree it cannot remove, says why, and removes the others', async () => {
  const domain = new Domain(db, { signals: { setUnattended: () => undefined } });
  const worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } });
  const workspaceId = domain.workspaces.create({ name: 'main' }).id;
  const done: Array<{ taskId: number; cwd: string; repo: string }> = [];
  for (const name of ['broken', 'fine']) {
    const repo = makeRepo(join(dir, name));
    const projectId = domain.projects.create({ workspaceId, name, repoPath: repo }).id;
    const taskId = domain.tasks.create({ projectId, title: `${name} task` }).id;
    const { cwd } = await worktrees.prepare(taskId);
    domain.tasks.update(taskId, { status: 'DONE' });
    done.push({ taskId, cwd, repo });
  }
  // The first project's repository is gone: git cannot remove its task's worktree.
  rmSync(join(done[0]!.repo, '.git'), { recursive: true });

  const collected = await worktrees.collect({ retentionDays: 0 });
  expect(collected.removed).toEqual([done[1]!.taskId]);
  expect(collected.skipped).toEqual([{ taskId: done[0]!.taskId, code: expect.any(String), message: expect.any(String) }]);
  expect(existsSync(done[1]!.cwd)).toBe(false);
});
