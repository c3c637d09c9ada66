// An agent owns its task's worktree, `.git` file included. Here it repoints that file at a git
// directory it made, whose configuration and hooks start programs (fsmonitor, a clean filter, a
// textconv driver, the post-commit, prepare-commit-msg, reference-transaction and post-index-change
// hooks), each of which would leave a marker with the environment it saw. Against a real
// `svc serve`: the review (`svc task diff`, `GET /api/tasks/:id/diff`), merge and discard with
// `--commit-pending`, `svc task remove` and the collection start none of them; review and merge
// refuse with `worktree_git_dir_mismatch`; discard, remove and collection still remove the worktree,
// committing its pending work to the task's real branch, and collection goes on to the next one.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { git, makeRepo, writeFiles } from '../support/git-repo.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';

const GATEWAY_SECRET = 'gw-secret-3f9c2a7d';
const HOOKS = ['post-commit', 'prepare-commit-msg', 'reference-transaction', 'post-index-change'];

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let outside: string;
let markers: string;
let repo: string;

beforeAll(async () => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-agent-git-'));
  markers = join(outside, 'markers');
  mkdirSync(markers);
  repo = makeRepo(join(outside, 'repo'), { 'README.md': '# demo\n', 'src/app.txt': 'one\ntwo\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  // A secret in the service's environment, as a gateway's token would be.
  server = await startServe(svc, { OPENCLAW_GATEWAY_TOKEN: GATEWAY_SECRET, SVC_WORKTREE_CHECK_INTERVAL_MS: '3600000' });
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

/** A task with a worktree whose `.git` now names the agent's git directory, and pending work in it. */
async function taskWithRepointedWorktree(title: string): Promise<{ id: number; worktree: string; branch: string }> {
  const id = (await apiOk(server!, 'POST', '/api/tasks', { title, projectId: 'demo' })).id as number;
  const { worktree: row } = await apiOk(server!, 'POST', `/api/tasks/${id}/worktree`, {});
  const worktree = row.worktreePath as string;
  const branch = row.branch as string;
  const gitDir = join(outside, `agent-git-${id}`);
  git(outside, 'clone', '--quiet', '--bare', repo, gitDir);
  git(gitDir, 'config', 'core.bare', 'false');
  git(gitDir, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
  const script = (name: string, body: string) => {
    const path = join(gitDir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `#!/bin/sh\nenv > '${join(markers, `${name.replace('/', '-')}-task-${id}`)}'\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  for (const hook of HOOKS) script(`hooks/${hook}`, 'exit 0');
  git(gitDir, 'config', 'core.fsmonitor', script('fsmonitor', 'exit 1'));
  git(gitDir, 'config', 'filter.agent.clean', script('clean-filter', 'cat'));
  git(gitDir, 'config', 'diff.agent.textconv', script('textconv', 'cat "$1"'));
  writeFileSync(join(gitDir, 'info', 'attributes'), '* filter=agent diff=agent\n');
  writeFileSync(join(worktree, '.git'), `gitdir: ${gitDir}\n`);
  git(worktree, 'read-tree', 'HEAD');
  // The markers the set-up itself left (the hooks git ran for the lines above) are not the point.
  for (const name of readdirSync(markers)) rmSync(join(markers, name));
  writeFiles(worktree, { 'src/app.txt': 'one\nTWO\n', 'notes.md': 'new\n', '.gitattributes': '* filter=agent diff=agent\n' });
  return { id, worktree, branch };
}

/** The markers left since the last look, by the step that left them. */
const seen: Record<string, string[]> = {};
function markersAfter(step: string): void {
  const names = readdirSync(markers);
  if (names.length > 0) seen[step] = [...names].sort();
  for (const name of names) {
    // Whatever ran saw svc's environment; the assertion below names what ran.
    if (readFileSync(join(markers, name), 'utf8').includes(GATEWAY_SECRET)) seen[step]!.push(`${name} saw the gateway secret`);
    rmSync(join(markers, name));
  }
}

test("no git configuration or hook of the agent's own git directory runs inside svc, and its worktree can still be removed", async () => {
  // Each step's outcome is checked softly, so every step runs and the last check names every program
  // that ran, step by step.
  // Review: refused, nothing run.
  const reviewed = await taskWithRepointedWorktree('review me');
  const cli = await svc.run(['task', 'diff', String(reviewed.id)]);
  markersAfter('svc task diff');
  expect.soft(cli.code).not.toBe(0);
  expect.soft(cli.stderr).toContain('worktree_git_dir_mismatch');
  const http = await server!.api('GET', `/api/tasks/${reviewed.id}/diff`);
  markersAfter('GET /api/tasks/:id/diff');
  expect.soft(http.body.error?.code).toBe('worktree_git_dir_mismatch');
  expect.soft(http.body.error?.details?.fix).toContain('svc task discard');

  // Merge with --commit-pending: refused, nothing run, nothing merged.
  const merged = await taskWithRepointedWorktree('merge me');
  const mainBefore = git(repo, 'rev-parse', 'main');
  const merge = await server!.api('POST', `/api/tasks/${merged.id}/merge`, { commitPending: true });
  markersAfter('merge --commit-pending');
  expect.soft(merge.body.error?.code).toBe('worktree_git_dir_mismatch');
  expect.soft(git(repo, 'rev-parse', 'main')).toBe(mainBefore);

  // Discard with --commit-pending: removed, its pending work committed to the real branch.
  const discarded = await taskWithRepointedWorktree('discard me');
  const discard = await server!.api('POST', `/api/tasks/${discarded.id}/discard`, { commitPending: true });
  markersAfter('discard --commit-pending');
  expect.soft(discard.body).toMatchObject({ worktreeRemoved: true, committedPending: true });
  expect.soft(existsSync(discarded.worktree)).toBe(false);
  expect.soft(git(repo, 'show', `${discarded.branch}:src/app.txt`)).toBe('one\nTWO');
  expect.soft(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(discarded.worktree);

  // svc task remove: the task and its worktree go.
  const removed = await taskWithRepointedWorktree('remove me');
  const remove = await svc.run(['task', 'remove', String(removed.id)]);
  markersAfter('svc task remove');
  expect.soft(remove.code, remove.stderr).toBe(0);
  expect.soft(existsSync(removed.worktree)).toBe(false);

  // Collection: the repointed worktree and the ordinary one after it both go.
  const collectedFirst = await taskWithRepointedWorktree('collect me');
  const ordinary = (await apiOk(server!, 'POST', '/api/tasks', { title: 'ordinary', projectId: 'demo' })).id as number;
  const ordinaryPath = (await apiOk(server!, 'POST', `/api/tasks/${ordinary}/worktree`, {})).worktree.worktreePath as string;
  for (const id of [collectedFirst.id, ordinary]) await apiOk(server!, 'PATCH', `/api/tasks/${id}`, { status: 'DONE' });
  const collected = await server!.api('POST', '/api/task-worktrees/collect', { retentionDays: 0 });
  markersAfter('collection');
  expect.soft(collected.body.removed).toEqual(expect.arrayContaining([collectedFirst.id, ordinary]));
  expect.soft(collected.body.skipped).toEqual([]);
  expect.soft(existsSync(collectedFirst.worktree) || existsSync(ordinaryPath)).toBe(false);

  expect(seen).toEqual({});
  expect(server!.child.exitCode).toBeNull();
}, 120_000);
