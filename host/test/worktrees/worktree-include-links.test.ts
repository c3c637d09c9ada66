import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { TaskWorktrees } from '../../src/features/worktrees/index.js';
import { git, GIT_TEST_ENV, makeRepo, writeFiles } from '../../../test/support/git-repo.js';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-include-links-'));
  db = openDatabase(join(dir, 'svc.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test(".worktreeinclude never copies the person's files through a link the branch holds to a folder outside the worktree", async () => {
  const outside = join(dir, 'agent-box');
  mkdirSync(outside);
  const repo = makeRepo(join(dir, 'repo'), {
    '.gitignore': '.env\nsecret.txt\n',
    '.worktreeinclude': '.env\nconf/secret.txt\nlocal/secret.txt\n',
    'conf/app.toml': 'x = 1\n',
  });
  // A branch (an earlier task's) where `conf` is a link to a folder elsewhere and `.env` a link to a
  // file that does not exist yet.
  git(repo, 'checkout', '--quiet', '-b', 'feature');
  git(repo, 'rm', '--quiet', '-r', 'conf');
  symlinkSync(outside, join(repo, 'conf'));
  symlinkSync(join(outside, 'copied.env'), join(repo, '.env'));
  git(repo, 'add', '-f', 'conf', '.env');
  git(repo, 'commit', '--quiet', '-m', 'links');
  git(repo, 'checkout', '--quiet', 'main');
  // The person's ignored files in the project folder.
  writeFiles(repo, { '.env': 'TOKEN=person-secret\n', 'conf/secret.txt': 'person-secret\n', 'local/secret.txt': 'kept\n' });

  const domain = new Domain(db, { signals: { setUnattended: () => undefined } });
  const worktrees = new TaskWorktrees({ db, domain, svcHome: join(dir, 'home'), hostEnv: { ...process.env, ...GIT_TEST_ENV } });
  const workspace = domain.workspaces.create({ name: 'main' });
  const projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
  const { cwd } = await worktrees.prepare(domain.tasks.create({ projectId, title: 'follow-up' }).id, { baseBranch: 'feature' });

  expect(readdirSync(outside)).toEqual([]);
  expect(existsSync(join(cwd, 'conf', 'secret.txt'))).toBe(false);
  // What is reached through real folders is still copied.
  expect(readFileSync(join(cwd, 'local', 'secret.txt'), 'utf8')).toBe('kept\n');
});
