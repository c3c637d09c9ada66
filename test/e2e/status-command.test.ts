// `svc status`: the board in the terminal. Every open task of every project under what it asks of
// the person (needs you, ready for review, conflicts, working), one line each, idle and today's done
// tasks counted; filters by workspace, project and label; `--json` is the board's answer (the web
// UI's /api/board); `--watch` prints again when something changed.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeRepo } from '../support/git-repo.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  expect({ args, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  await ok(['workspace', 'create', 'play']);
  await ok(['workspace', 'create', 'work']);
  await ok(['project', 'create', 'hello', '--workspace', 'play', '--repo', makeRepo(join(svc.home, 'hello'))]);
  await ok(['project', 'create', 'api', '--workspace', 'work', '--repo', makeRepo(join(svc.home, 'api'))]);
  await ok(['label', 'create', 'bug', '--project', 'api']);
  await ok(['task', 'create', 'Say hello', '--project', 'hello']);
  await ok(['task', 'create', 'Fix the login', '--project', 'api', '--label', 'bug', '--status', 'IN_REVIEW']);
  await ok(['task', 'create', 'Ship it', '--project', 'api', '--status', 'DONE']);
}, 120_000);

afterAll(() => svc?.cleanup());

test('svc status groups every task of every project, one line each; --json is the board', async () => {
  const board = JSON.parse(await ok(['status', '--json']));
  expect(board.attentions).toEqual(['needs_you', 'ready_for_review', 'conflicts', 'working', 'idle', 'done']);
  expect(board.items.map((card: { taskId: number; attention: string; projectName: string; workspaceName: string }) => [card.taskId, card.attention, card.projectName, card.workspaceName])).toEqual([
    [2, 'ready_for_review', 'api', 'work'],
    [1, 'idle', 'hello', 'play'],
    [3, 'done', 'api', 'work'],
  ]);
  expect(board.items[0]).toMatchObject({ title: 'Fix the login', labels: ['bug'], branch: null, diff: null, connection: null, question: null, lastLine: null });

  const text = await ok(['status']);
  expect(text).toMatch(/^NEEDS YOU \(0\)\nREADY FOR REVIEW \(1\)\n {2}#2 {2}api {2}Fix the login {2}\d+s\nCONFLICTS \(0\)\nWORKING \(0\)\n1 idle · 1 done today\n$/);

  const filtered = async (args: string[]) => JSON.parse(await ok(['status', ...args, '--json'])).items.map((card: { taskId: number }) => card.taskId);
  expect(await filtered(['--workspace', '1'])).toEqual([1]);
  expect(await filtered(['--project', '2'])).toEqual([2, 3]);
  expect(await filtered(['--label', 'bug'])).toEqual([2]);
});

test('svc status --watch prints the board again when a task changes', async () => {
  const child = svc.start(['status', '--watch', '--json']);
  try {
    const lines = () => child.output.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { items: Array<{ title: string }> });
    await waitFor(() => lines().length === 1, 30_000, 'the first board');
    await ok(['task', 'create', 'Write the notes', '--project', 'hello']);
    await waitFor(() => lines().length === 2, 30_000, 'the board after the change');
    expect(lines()[1]!.items.map((card) => card.title)).toContain('Write the notes');
    expect(lines()[0]!.items.map((card) => card.title)).not.toContain('Write the notes');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
});
