// An agent that can write the repository's configuration (its worktree shares `.git/config`) sets a
// merge driver for a name the project's `.gitattributes` selects (`merge=agent`, which an earlier
// task could have committed). Against a real `svc serve`: the overlap check (`svc project overlaps`)
// and `svc task merge` never start it, and they answer what they answer with no driver configured:
// the same merged tree for a clean merge, the same conflicting files for a conflict.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, GIT_TEST_ENV, makeRepo, writeFiles } from '../support/git-repo.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let outside: string;
let markers: string;
let repo: string;

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

beforeAll(async () => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-merge-driver-'));
  markers = join(outside, 'markers');
  mkdirSync(markers);
  repo = makeRepo(join(outside, 'repo'), {
    '.gitattributes': '*.txt merge=agent\n',
    'src/clean.txt': `${lines(10).join('\n')}\n`,
    'src/clash.txt': 'one\ntwo\nthree\n',
  });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  server = await startServe(svc, { SVC_WORKTREE_CHECK_INTERVAL_MS: '3600000' });
  await apiOk(server, 'POST', '/api/workspaces', { name: 'main' });
  await apiOk(server, 'POST', '/api/projects', { name: 'demo', workspaceId: 'main', repoPath: repo });
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc?.cleanup();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

/** A task whose worktree holds one commit that rewrites `path` with `content`. */
async function taskCommitting(title: string, path: string, content: string): Promise<{ id: number; branch: string }> {
  const id = (await apiOk(server!, 'POST', '/api/tasks', { title, projectId: 'demo' })).id as number;
  const { worktree } = await apiOk(server!, 'POST', `/api/tasks/${id}/worktree`, {});
  writeFiles(worktree.worktreePath as string, { [path]: content });
  commitAll(worktree.worktreePath as string, title);
  return { id, branch: worktree.branch as string };
}

/** `git merge-tree --write-tree --name-only` of two commits as plain git answers it: the tree and the conflicting files. */
function plainMerge(ours: string, theirs: string): { tree: string; conflicts: string[] } {
  const merged = spawnSync('git', ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { cwd: repo, env: { ...process.env, ...GIT_TEST_ENV }, encoding: 'utf8' });
  expect([0, 1]).toContain(merged.status);
  const [tree, ...conflicts] = merged.stdout.trim().split('\n');
  return { tree: tree!, conflicts };
}

test("a merge driver the repository's configuration names never runs inside svc, and merges and the overlap check answer as with no driver", async () => {
  const clean = await taskCommitting('edit line 2', 'src/clean.txt', `${lines(10).map((line, index) => (index === 1 ? 'line 2 from the task' : line)).join('\n')}\n`);
  const clash = await taskCommitting('edit two', 'src/clash.txt', 'one\ntwo from the task\nthree\n');
  // Another task changes the first one's file elsewhere: the two overlap without a conflict.
  await taskCommitting('edit line 5', 'src/clean.txt', `${lines(10).map((line, index) => (index === 4 ? 'line 5 from another task' : line)).join('\n')}\n`);
  // The base moves on in both files: every merge above is a content merge of a `merge=agent` file.
  writeFiles(repo, { 'src/clean.txt': `${lines(10).map((line, index) => (index === 8 ? 'line 9 on main' : line)).join('\n')}\n`, 'src/clash.txt': 'one\ntwo on main\nthree\n' });
  commitAll(repo, 'main moves');

  // What svc answers while no driver is configured: the name falls back to git's text merge.
  const expected = { clean: plainMerge('main', clean.branch), clash: plainMerge('main', clash.branch) };
  expect(expected.clean.conflicts).toEqual([]);
  expect(expected.clash.conflicts).toEqual(['src/clash.txt']);
  const overlapsWithoutDriver = await svc.run(['project', 'overlaps', 'demo']);
  expect(overlapsWithoutDriver.code, overlapsWithoutDriver.stderr).toBe(0);
  expect(overlapsWithoutDriver.stdout).toContain(`task ${clash.id} conflicts with main in src/clash.txt`);

  // The agent's driver: it leaves a marker and silently keeps "ours", which would hide every conflict.
  const driver = join(outside, 'agent-driver');
  writeFileSync(driver, `#!/bin/sh\ntouch '${join(markers, 'merge-driver')}'\nexit 0\n`);
  chmodSync(driver, 0o755);
  git(repo, 'config', 'merge.agent.driver', `${driver} %O %A %B`);
  git(repo, 'config', 'merge.agent.name', 'the agent driver');

  const overlaps = await svc.run(['project', 'overlaps', 'demo']);
  expect.soft(overlaps.code, overlaps.stderr).toBe(0);
  expect.soft(overlaps.stdout).toBe(overlapsWithoutDriver.stdout);
  expect.soft(readdirSync(markers)).toEqual([]);

  const merged = await svc.run(['task', 'merge', String(clean.id)], { timeoutMs: 60_000 });
  expect.soft(merged.code, merged.stderr).toBe(0);
  expect.soft(git(repo, 'rev-parse', 'main^{tree}')).toBe(expected.clean.tree);
  expect.soft(git(repo, 'show', 'main:src/clean.txt')).toContain('line 2 from the task\n');
  expect.soft(readdirSync(markers)).toEqual([]);

  const mainBefore = git(repo, 'rev-parse', 'main');
  const conflict = await svc.run(['task', 'merge', String(clash.id)], { timeoutMs: 60_000 });
  expect.soft(conflict.code).not.toBe(0);
  expect.soft(conflict.stderr).toContain('merge_conflict');
  expect.soft(conflict.stderr).toContain(`conflicts with main in ${expected.clash.conflicts.join(', ')}`);
  expect.soft(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
  expect.soft(readdirSync(markers)).toEqual([]);

  expect(readdirSync(markers)).toEqual([]);
  expect(server!.child.exitCode).toBeNull();
}, 120_000);
