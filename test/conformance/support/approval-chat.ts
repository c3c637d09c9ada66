// A task's permission requests as the person sees them: relayed to the chat the task's questions go
// to (a Hermes gateway: the stand-in records what it sends), answered by a reply there (svc's Hermes
// plugin in the Hermes stand-in) or over HTTP, and listed per task.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { hermesChat } from '../../support/hermes-chat.js';
import { REPO_ROOT, waitFor } from '../../support/svc-process.js';
import type { ConformanceSandbox } from './conformance-sandbox.js';
import type { TaskTerminals } from './task-terminals.js';

const OWNER = '4242';

/** Adds the chat (gateway and channel); call before the service starts, which reads the stand-in's log setting. */
export async function addScriptedChat(sandbox: ConformanceSandbox): Promise<void> {
  sandbox.svc.env.HERMES_FAKE_LOG = join(sandbox.home, 'relayed.log');
  await sandbox.ok(['gateway', 'add', 'chat', '--kind', 'hermes', '--command', join(REPO_ROOT, 'test/fake-clis/hermes/hermes')]);
  await sandbox.ok(['channel', 'add', 'tg', '--gateway', 'chat', '--platform', 'telegram', '--to', OWNER, '--owner', OWNER]);
}

export function taskApprovals(sandbox: ConformanceSandbox, terminals: TaskTerminals, taskId: number) {
  const api = (method: string, path: string, body?: unknown) => terminals.serve.api(method, path, body);
  const items = async () => ((await api('GET', `/api/approvals?taskId=${taskId}`)).body as { items: any[] }).items;
  let seen = 0;
  return {
    items,
    /** The next request the CLI made (an open one newer than the last). */
    async next() {
      const open = await waitFor(async () => (await items()).find((a) => a.status === 'OPEN' && a.id > seen), 60_000, 'a permission request');
      seen = open.id;
      return open;
    },
    /** The message the chat was sent about the request. */
    relayed(approvalId: number) {
      const log = sandbox.svc.env.HERMES_FAKE_LOG!;
      const sent = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { message: string }) : []);
      return waitFor(() => sent().find((call) => call.message.includes(`approval #${approvalId}`))?.message, 30_000, 'the relay');
    },
    /** The owner's reply to the relayed message, through the Hermes plugin; returns what the plugin sent back. */
    async reply(approval: { id: number; messageId: number }, text: string) {
      const message = await waitFor(async () => {
        const found = (await api('GET', `/api/harness/messages/${approval.messageId}`)).body;
        return found?.delivery ? found : undefined;
      }, 30_000, 'the relay delivered');
      const credential = (JSON.parse((await sandbox.ok(['gateway', 'credential', 'chat', '--json'])).stdout) as { credential: string }).credential;
      const [outcome] = await hermesChat(sandbox.svc, credential, [
        { platform: 'telegram', chat_id: OWNER, chat_type: 'dm', user_id: OWNER, message_id: '901', text, reply_to_message_id: message.delivery.platformMessageId, reply_to_text: message.body },
      ]);
      return outcome!.sent.map((sent) => sent.content);
    },
    async answer(approvalId: number, body: { answer: 'allow_once' | 'deny' | 'allow_for_task'; reason?: string }) {
      expect((await api('POST', '/api/approvals/answer', { approvalId, ...body })).status).toBe(200);
    },
  };
}

/** The calls the scripted model makes, in order, each a shell command needing approval: `[step, command]`. */
export const APPROVAL_CALLS = [
  ['allow', 'echo allowed >> ran.log'],
  ['deny', 'echo denied >> ran.log'],
  ['rule_1', 'echo ruled >> ran.log'],
  ['rule_2', 'echo ruled >> ran.log'],
  ['changed', 'echo changed >> ran.log'],
] as const;
export const APPROVALS_DONE = 'Every line is recorded.';

/**
 * Answers the requests APPROVAL_CALLS make: the first by the owner's reply "allow" in the chat it was
 * relayed to (it runs once), the second with a deny whose reason the model gets, the third for the
 * rest of the task (the identical fourth call runs without asking), the changed fifth asks again.
 * `resultOf(step)` is what the model got back for a call.
 */
export async function answerApprovalCalls(
  sandbox: ConformanceSandbox,
  terminals: TaskTerminals,
  taskId: number,
  resultOf: (step: (typeof APPROVAL_CALLS)[number][0]) => Promise<unknown>,
): Promise<void> {
  const approvals = taskApprovals(sandbox, terminals, taskId);
  const ranFile = join(sandbox.workspace, 'ran.log');
  const ran = () => (existsSync(ranFile) ? readFileSync(ranFile, 'utf8').trim().split('\n') : []);

  const first = await approvals.next();
  expect(first).toMatchObject({ toolName: 'Bash', shown: expect.stringContaining('Command: echo allowed >> ran.log') });
  expect(await approvals.relayed(first.id)).toContain('echo allowed >> ran.log');
  expect(ran()).toEqual([]);
  expect(await approvals.reply(first, 'allow')).toEqual([`svc: approval #${first.id} allowed; task ${taskId} is told.`]);
  await resultOf('allow');
  expect(ran()).toEqual(['allowed']);

  const second = await approvals.next();
  expect(second.shown).toContain('echo denied >> ran.log');
  await approvals.answer(second.id, { answer: 'deny', reason: 'one line is enough' });
  expect(JSON.stringify(await resultOf('deny'))).toContain('one line is enough');

  const third = await approvals.next();
  expect(third.shown).toContain('echo ruled >> ran.log');
  await approvals.answer(third.id, { answer: 'allow_for_task' });
  await resultOf('rule_2');

  const changed = await approvals.next();
  expect(changed.shown).toContain('echo changed >> ran.log');
  await approvals.answer(changed.id, { answer: 'allow_once' });
  await terminals.waitForScreen(taskId, [APPROVALS_DONE]);
  expect(ran()).toEqual(['allowed', 'ruled', 'ruled', 'changed']);
  // The identical fourth call met the rule: recorded, never asked.
  const items = await approvals.items();
  expect(items.filter((a) => a.answer === 'rule')).toHaveLength(1);
  expect(items.filter((a) => a.answer !== 'rule').map((a) => a.id).sort()).toEqual([first.id, second.id, third.id, changed.id].sort());
}
