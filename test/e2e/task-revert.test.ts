// Reverting a task's change in its worktree before merging, through `svc task revert` (the Review
// view's "Revert file" and "Revert this change" run the same operation): it says what it will undo
// and changes nothing until confirmed; a file goes back to its base content (a file the task added
// is deleted), one hunk is undone alone; the file as it was is kept under $SVC_HOME; a refusal
// changes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, makeRepo, writeFiles } from '../support/git-repo.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let worktree: string;

const BASE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const CHANGED = BASE.replace('line 2\n', 'line two\n').replace('line 18\n', 'line eighteen\n');

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  expect({ args, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  const repo = makeRepo(join(svc.home, 'repo'), { 'README.md': '# demo\n', 'notes.txt': BASE });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  await ok(['workspace', 'create', 'play']);
  await ok(['project', 'create', 'demo', '--workspace', 'play', '--repo', repo]);
  await ok(['task', 'create', 'Edit the notes', '--project', 'demo']);
  await ok(['task', 'worktree', '1', '--create']);
  worktree = JSON.parse(await ok(['task', 'worktree', '1', '--json'])).worktree.worktreePath;
  writeFiles(worktree, { 'notes.txt': CHANGED });
  commitAll(worktree, 'two edits');
  writeFiles(worktree, { 'added.txt': 'new\n' });
}, 120_000);

afterAll(() => svc?.cleanup());

test('a hunk is undone alone, after saying what it undoes; a refusal or a dry run changes nothing', async () => {
  const dry = JSON.parse(await ok(['task', 'revert', '1', 'notes.txt', '--hunk', '2', '--dry-run', '--json']));
  expect(dry).toMatchObject({ action: 'undo_hunk', hunk: 1, additions: 1, deletions: 1, dryRun: true, savedCopy: null });
  expect(dry.patch).toContain('+line eighteen');
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe(CHANGED);

  // Without --yes and without a terminal to ask on, it refuses; nothing changes.
  const unasked = await svc.run(['task', 'revert', '1', 'notes.txt', '--hunk', '2']);
  expect(unasked.code).not.toBe(0);
  expect(unasked.stderr).toContain('undo change 2 of notes.txt');
  expect(unasked.stderr).toContain('confirmation_required');
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe(CHANGED);

  const stale = await svc.run(['task', 'revert', '1', 'notes.txt', '--hunk', '3', '--yes']);
  expect(stale.stderr).toContain('revert_stale');
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe(CHANGED);

  const done = JSON.parse(await ok(['task', 'revert', '1', 'notes.txt', '--hunk', '2', '--yes', '--json']));
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe(BASE.replace('line 2\n', 'line two\n'));
  expect(readFileSync(done.savedCopy, 'utf8')).toBe(CHANGED);
  expect(done.savedCopy.startsWith(svc.home)).toBe(true);
  // The branch's commit is untouched: the undo is a change in the worktree, to commit or not.
  expect(git(worktree, 'show', 'HEAD:notes.txt')).toBe(CHANGED.trimEnd());
});

test('a whole file goes back to its base content; a file the task added is deleted and kept; an unchanged file is refused', async () => {
  const restored = JSON.parse(await ok(['task', 'revert', '1', 'notes.txt', '--yes', '--json']));
  expect(restored.action).toBe('restore');
  expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe(BASE);

  const deleted = JSON.parse(await ok(['task', 'revert', '1', 'added.txt', '--yes', '--json']));
  expect(deleted.action).toBe('delete');
  expect(existsSync(join(worktree, 'added.txt'))).toBe(false);
  expect(readFileSync(deleted.savedCopy, 'utf8')).toBe('new\n');

  const unchanged = await svc.run(['task', 'revert', '1', 'README.md', '--yes']);
  expect(unchanged.code).not.toBe(0);
  expect(unchanged.stderr).toContain('nothing_to_revert');
  const outside = await svc.run(['task', 'revert', '1', '../escape.txt', '--yes']);
  expect(outside.stderr).toContain('invalid_request');
});
