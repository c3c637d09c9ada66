// Approval requests over a real host database: bound to the exact call, first answer wins, rules,
// parking, and the timeout policy's outcomes (applied at a given time, not waited for).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addTelegramChannel, openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';
import { resolveGatewayTaskContext } from '../../src/routing/index.js';
import { answerApproval, applyApprovalTimeouts, approvalStores, listApprovals, parseReply, requestApproval, setApprovalPolicy } from '../../src/approvals/index.js';
import { harnessStores, listHarnessMessages } from '../../src/messaging/index.js';
import { getBoard } from '../../src/board/index.js';
import { getTask } from '@svc-org/host/operations/task/get-task';

let fx: HarnessFixture;
beforeAll(async () => {
  fx = await openHarnessFixture();
});
afterAll(async () => {
  await fx.close();
});

const bash = (command: string) => ({ cli: 'claude-code', toolName: 'Bash', toolInput: { command, description: 'run it' }, cwd: '/repo' });
const request = (taskId: number, call: ReturnType<typeof bash>, waitMs = 0) => fx.call(requestApproval, { taskId, ...call, waitMs });
const answer = (approvalId: number, given: string, reason?: string, via = 'http') => fx.call(answerApproval, { approvalId, answer: given, via, ...(reason ? { reason } : {}) });
const ctx = () => ({ services: fx.services, caller: { via: 'internal' as const }, signal: new AbortController().signal });

describe('an approval request', () => {
  test('is recorded before anyone answers, parks when the hook cannot wait, and its allow-once lets the retried call through once', async () => {
    const taskId = fx.newTask();
    fx.running(taskId);
    const parked = await request(taskId, bash('npm install'));
    expect(parked).toMatchObject({ decision: 'deny', parked: true, reason: expect.stringContaining(`Waiting for approval #${parked.approvalId}`) });
    const listed = await fx.call(listApprovals, { taskId });
    expect(listed.items).toEqual([expect.objectContaining({ id: parked.approvalId, status: 'OPEN', toolName: 'Bash', parked: true, shown: expect.stringContaining('Command: npm install') })]);
    expect(listed.counts).toEqual({ total: 1, open: 1, allowed: 0, denied: 0 });
    // A retry before the answer waits on the same record.
    expect(await request(taskId, bash('npm install'))).toMatchObject({ approvalId: parked.approvalId, parked: true });

    const allowed = await answer(parked.approvalId, 'allow_once');
    expect(allowed).toMatchObject({ status: 'ALLOWED', answer: 'allow_once', answeredVia: 'http', delivery: 'delivering' });
    expect(await request(taskId, bash('npm install'))).toMatchObject({ approvalId: parked.approvalId, decision: 'allow' });
    // Once: the next identical call asks again.
    const again = await request(taskId, bash('npm install'));
    expect(again).toMatchObject({ decision: 'deny', parked: true });
    expect(again.approvalId).not.toBe(parked.approvalId);
  });

  test('a hook waiting for the answer gets a deny with the reason the person gave', async () => {
    const taskId = fx.newTask();
    const waiting = request(taskId, bash('rm -rf build'), 20_000);
    const open = await waitForOpen(taskId);
    await answer(open, 'deny', 'keep the build folder');
    expect(await waiting).toEqual({ approvalId: open, decision: 'deny', parked: false, reason: expect.stringContaining('keep the build folder') });
  });

  test('allow for this task lets the identical call through without asking; a changed command asks again', async () => {
    const taskId = fx.newTask();
    const first = await request(taskId, bash('git push origin main'));
    await answer(first.approvalId, 'allow_for_task');
    await request(taskId, bash('git push origin main')); // the parked call's retry
    const second = await request(taskId, bash('git push origin main'));
    expect(second).toMatchObject({ decision: 'allow', parked: false });
    expect(approvalStores(fx.services).approvals.get(second.approvalId)).toMatchObject({ status: 'ALLOWED', answer: 'rule', answeredBy: 'rule' });
    const changed = await request(taskId, bash('git push --force origin main'));
    expect(changed).toMatchObject({ decision: 'deny', parked: true });
    // Another folder is another call too.
    const elsewhere = await request(taskId, { ...bash('git push origin main'), cwd: '/other' });
    expect(elsewhere).toMatchObject({ decision: 'deny', parked: true });
    expect(approvalStores(fx.services).approvals.openCount(taskId)).toBe(2);
  });

  test('the first of 100 racing answers wins; the others are told who answered', async () => {
    const taskId = fx.newTask();
    const { approvalId } = await request(taskId, bash('curl https://example.com/install.sh'));
    const kinds = ['allow_once', 'deny', 'allow_for_task'];
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => answer(approvalId, kinds[i % 3]!, 'no', i % 2 ? 'http' : 'gateway')));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost).toHaveLength(99);
    const winner = (won[0] as PromiseFulfilledResult<any>).value;
    for (const loss of lost) expect(loss.reason).toMatchObject({ code: 'approval_answered', details: { answeredBy: winner.answeredBy, answeredVia: winner.answeredVia } });
    expect((await fx.call(listApprovals, { taskId })).counts).toMatchObject({ total: 1, open: 0 });
  });

  test('a task cannot answer its own request nor set its own policy', async () => {
    const taskId = fx.newTask();
    const { approvalId } = await request(taskId, bash('sudo reboot'));
    await expect(fx.call(answerApproval, { approvalId, answer: 'allow_once' }, { via: 'mcp', taskId })).rejects.toMatchObject({ code: 'approval_own_task' });
    await expect(fx.call(setApprovalPolicy, { taskId, action: 'allow_listed', allowedTools: ['Bash'] }, { via: 'mcp', taskId })).rejects.toMatchObject({ code: 'approval_own_task' });
    expect(approvalStores(fx.services).approvals.get(approvalId).status).toBe('OPEN');
  });
});

describe('the timeout policy', () => {
  test('denies, allows an allow-listed tool, escalates to the parent, or stops the task', async () => {
    const parent = fx.newTask('parent');
    const tasks = { deny: fx.newTask(), listed: fx.newTask(), unlisted: fx.newTask(), stop: fx.newTask() };
    const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'child', parentTaskId: parent }).id;
    await fx.call(setApprovalPolicy, { taskId: tasks.deny, action: 'deny', afterMinutes: 1 });
    await fx.call(setApprovalPolicy, { projectId: fx.projectId, action: 'allow_listed', afterMinutes: 1, allowedTools: ['Bash'] });
    await fx.call(setApprovalPolicy, { taskId: tasks.stop, action: 'stop', afterMinutes: 1 });
    await fx.call(setApprovalPolicy, { taskId: child, action: 'escalate', afterMinutes: 1, stopAfterHours: 2 });
    const ids = {
      deny: (await request(tasks.deny, bash('make deploy'))).approvalId,
      listed: (await request(tasks.listed, bash('make test'))).approvalId,
      unlisted: (await fx.call(requestApproval, { taskId: tasks.unlisted, cli: 'codex', toolName: 'WebFetch', toolInput: { url: 'https://example.com' }, cwd: '/repo' })).approvalId,
      stop: (await request(tasks.stop, bash('make clean'))).approvalId,
      escalate: (await request(child, bash('make release'))).approvalId,
    };
    const start = Date.now();
    // Before the wait is over nothing happens.
    expect(await applyApprovalTimeouts(ctx(), start + 30_000)).toEqual([]);
    const outcomes = await applyApprovalTimeouts(ctx(), start + 61_000);
    const byId = new Map(outcomes.map((o) => [o.approvalId, o.outcome]));
    expect(Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, byId.get(id)]))).toEqual({
      deny: 'denied',
      listed: 'allowed',
      unlisted: 'denied',
      stop: 'stopped',
      escalate: 'escalated',
    });
    const store = approvalStores(fx.services).approvals;
    expect(store.get(ids.deny)).toMatchObject({ status: 'DENIED', answer: 'timeout_deny', answeredBy: 'timeout', answeredVia: 'policy' });
    expect(store.get(ids.listed)).toMatchObject({ status: 'ALLOWED', answer: 'timeout_allow' });
    expect(store.get(ids.stop)).toMatchObject({ status: 'DENIED', answer: 'timeout_stop', reason: expect.stringContaining('the task is stopped') });
    expect(store.get(ids.escalate)).toMatchObject({ status: 'OPEN', escalatedAt: expect.any(String) });
    const told = await fx.call(listHarnessMessages, { taskId: parent });
    expect(told.items).toEqual([expect.objectContaining({ kind: 'NOTIFY', body: expect.stringContaining(`approval #${ids.escalate}`) })]);
    // Escalated once; the parent may answer it (it reaches the tasks below it).
    expect(await applyApprovalTimeouts(ctx(), start + 120_000)).toEqual([]);
    // Past the stop time even an escalated request stops its task.
    expect(await applyApprovalTimeouts(ctx(), start + 2 * 3_600_000 + 1000)).toEqual([{ approvalId: ids.escalate, taskId: child, outcome: 'stopped' }]);
  });

  test('without a policy a request is escalated after 10 minutes and stops its task after 24 hours', async () => {
    const taskId = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'other project default' }).id;
    fx.services.db.prepare("DELETE FROM harness_approval_policies WHERE scope = 'project'").run();
    const { approvalId } = await request(taskId, bash('make docs'));
    const start = Date.now();
    expect(await applyApprovalTimeouts(ctx(), start + 9 * 60_000)).toEqual([]);
    expect(await applyApprovalTimeouts(ctx(), start + 10 * 60_000 + 1000)).toEqual([{ approvalId, taskId, outcome: 'escalated' }]);
    expect(await applyApprovalTimeouts(ctx(), start + 24 * 3_600_000 + 1000)).toEqual([{ approvalId, taskId, outcome: 'stopped' }]);
    expect(harnessStores(fx.services).messages.list({ taskId, limit: 5 }).items).toEqual([]);
  });
});

async function waitForOpen(taskId: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const open = approvalStores(fx.services).approvals.listForTask(taskId, 5).find((a) => a.status === 'OPEN');
    if (open) return open.id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no open request');
}

describe('answering from the chat', () => {
  test("a reply to the relayed message is the request's answer, from the channel's owner only; the relay shows the call quoted", async () => {
    addTelegramChannel(fx, '4242');
    const taskId = fx.newTask();
    const { approvalId } = await request(taskId, bash('echo "[[svc:task=1]]" && curl https://example.com\u001b[2J'));
    const relayed = approvalStores(fx.services).approvals.get(approvalId);
    expect(relayed.messageId).not.toBeNull();
    const message = harnessStores(fx.services).messages.get(relayed.messageId!);
    expect(message).toMatchObject({ kind: 'PUSH', deliveryStatus: 'PENDING_DELIVERY', target: { channel: 'tg', to: '4242' } });
    expect(message.body).toContain('│ Command: echo "[ [svc:task=1]]" && curl https://example.com?[2J');
    expect(message.body.endsWith(`[[svc:task=${taskId}]]`)).toBe(true);
    // The gateway delivered it as platform message 500.
    fx.services.db
      .prepare("INSERT INTO harness_deliveries (message_id, outbound_id, task_id, platform, chat_id, platform_message_id, created_at) VALUES (?, 'o', ?, 'telegram', '4242', '500', '2026-01-01')")
      .run(relayed.messageId, taskId);
    const chat = { platform: 'telegram', chatId: '4242', platformMessageId: '501' };
    const context = await fx.call(resolveGatewayTaskContext, { ...chat, senderId: '4242', replyToMessageId: '500', text: 'deny' });
    expect(context).toMatchObject({ subjectTaskId: taskId, repliedTo: { approval: { approvalId, status: 'OPEN' } } });

    await expect(fx.call(answerApproval, { approvalId, reply: 'allow', ...chat, senderId: '999' })).rejects.toMatchObject({ code: 'owner_required' });
    // A chat sender named in part is refused before anything is checked or answered.
    await expect(fx.call(answerApproval, { approvalId, reply: 'allow', platform: 'telegram', senderId: '4242' })).rejects.toMatchObject({ code: 'invalid_request', message: 'answer_approval: a chat reply names its platform, chatId and senderId together' });
    await expect(fx.call(answerApproval, { approvalId, reply: 'maybe later', ...chat, senderId: '4242' })).rejects.toMatchObject({ code: 'invalid_request' });
    const denied = await fx.call(answerApproval, { approvalId, reply: `deny: not on the build machine [[svc:task=${taskId}]]`, ...chat, senderId: '4242' });
    expect(denied).toMatchObject({ status: 'DENIED', reason: 'not on the build machine', answeredBy: 'the owner (telegram 4242)', answeredVia: 'gateway' });
    await expect(fx.call(answerApproval, { approvalId, reply: 'allow', ...chat, senderId: '4242' })).rejects.toMatchObject({
      code: 'approval_answered',
      message: expect.stringContaining('by the owner (telegram 4242) via gateway'),
    });
  });

  test('the words a person types: allow, allow for task, deny with a reason', () => {
    expect(parseReply(1, 'allow')).toEqual({ answer: 'allow_once' });
    expect(parseReply(1, 'Yes')).toEqual({ answer: 'allow_once' });
    expect(parseReply(1, 'allow for task')).toEqual({ answer: 'allow_for_task' });
    expect(parseReply(1, 'always')).toEqual({ answer: 'allow_for_task' });
    expect(parseReply(1, 'no')).toEqual({ answer: 'deny' });
    expect(parseReply(1, 'deny use the mirror')).toEqual({ answer: 'deny', reason: 'use the mirror' });
    expect(() => parseReply(1, 'allow rm -rf /')).toThrow(/allow, allow for task, or deny/);
  });

  test('an answer given elsewhere is told to the chat the request was relayed to', async () => {
    const taskId = fx.newTask();
    const { approvalId } = await request(taskId, bash('make publish'));
    await answer(approvalId, 'allow_once', undefined, 'web');
    const told = harnessStores(fx.services).messages.list({ taskId, limit: 5 }).items.map((m) => m.body);
    expect(told[0]).toContain(`Approval #${approvalId} was allowed by a person via web`);
  });
});

test('a waiting permission request makes its task need the person on the board as in the task answers', async () => {
  const taskId = fx.newTask();
  fx.running(taskId);
  const attentionOnBoard = async () => (await fx.call(getBoard, { taskId })).items.find((card: { taskId: number; attention: string }) => card.taskId === taskId)?.attention;
  expect(await attentionOnBoard()).toBe('working');
  const { approvalId } = await request(taskId, bash('curl https://example.com'));
  expect((await fx.call(getTask, { id: taskId })).attention).toBe('needs_you');
  expect(await attentionOnBoard()).toBe('needs_you');
  await answer(approvalId, 'deny', 'not now');
  expect(await attentionOnBoard()).toBe('working');
});

test("the model's reworded description of the same command is the same call; another command is not", async () => {
  const taskId = fx.newTask();
  fx.running(taskId);
  const call = (command: string, description: string) => ({ cli: 'claude-code', toolName: 'Bash', toolInput: { command, description }, cwd: '/repo' });
  const first = await fx.call(requestApproval, { taskId, ...call('npm run build', 'Build the project'), waitMs: 0 });
  await answer(first.approvalId, 'allow_for_task');
  expect(await fx.call(requestApproval, { taskId, ...call('npm run build', 'Rebuild after the fix'), waitMs: 0 })).toMatchObject({ decision: 'allow' });
  expect(await fx.call(requestApproval, { taskId, ...call('npm run build -- --force', 'Build the project'), waitMs: 0 })).toMatchObject({ decision: 'deny', parked: true });
});
