// A person's reply reaching a task's live terminal, in-process: a real libsql database, a real
// TerminalManager with real PTYs (the host's echo test CLI stands in for an AI CLI), and the
// operations an adapter calls (reply_to_ask, relay_channel_reply, continue_bound_task), plus the
// service's start (startHarness), which types an answer a killed service recorded but never typed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import type { AnyOperation } from '@svc-org/host/operation-framework';
import { DEFAULT_TERMINAL_SETTINGS, TerminalManager } from '@svc-org/host/features/terminals';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS, waitFor } from '../../../test/support/svc-process.js';
import { askHuman, harnessStores, pushToHuman, replyToAsk, sendReviewComments } from '../../src/messaging/index.js';
import { startHarness } from '../../src/outbox/index.js';
import { continueBoundTask, relayChannelReply, routingStores } from '../../src/routing/index.js';
import { runOperation } from '../support/run-operation.js';
import { harnessPlugin } from '../../src/feature.js';
import { locateHookFiles } from '../../src/plugin/locate-hook-files.js';

const OWNER = '4242';
let home: string;
let services: HostServices;
let terminals: TerminalManager;
let projectId: number;
let workspaceId: number;

const call = <T = any>(operation: AnyOperation, input: unknown) =>
  runOperation(operation, input, { services, terminals, caller: { via: 'internal' }, signal: new AbortController().signal }) as Promise<T>;
const screen = (taskId: number) => terminals.read(taskId, undefined, 1 << 20).data.toString('utf8');
const echoes = (taskId: number, text: string) => screen(taskId).split(`echo: ${text}`).length - 1;
const askRow = (askId: number) =>
  services.db.prepare('SELECT status, reply, replied_via, resume_outcome FROM harness_asks WHERE message_id = ?').get(askId) as {
    status: string;
    reply: string | null;
    replied_via: string | null;
    resume_outcome: string | null;
  };
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

/** A task whose terminal runs the echo CLI, parked on an OPEN question (as the outbox parks it once sent). */
async function parkedOnQuestion(title: string): Promise<{ taskId: number; askId: number }> {
  const taskId = services.domain.tasks.create({ projectId, title }).id;
  await terminals.start(taskId, { connection: 'echo' });
  await waitFor(() => screen(taskId).includes('> '), 10_000, 'the prompt');
  const pushed = await runOperation(pushToHuman, { taskId, message: `${title}?`, expectReply: true }, { services, caller: { via: 'internal' }, signal: new AbortController().signal });
  harnessStores(services).messages.openAsk((pushed as { messageId: number }).messageId, taskId);
  terminals.pause(taskId);
  return { taskId, askId: (pushed as { messageId: number }).messageId };
}

async function stopIfLive(taskId: number): Promise<void> {
  const live = terminals.summary(taskId);
  if (live && live.state !== 'ENDED') await terminals.stop(taskId);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-reply-terminal-'));
  const env = { ...process.env, SVC_HOME: home, SVC_LOG_LEVEL: 'error', PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` };
  services = await openHostServices({ env, builtins: false, plugins: [harnessPlugin] });
  const { record } = await services.extensions.devAdd(copyFixtureProvider('echo'));
  await services.extensions.enable(record.id, async () => true);
  services.connections.add({ name: 'echo', providerId: record.id });
  const repo = join(home, 'repo');
  mkdirSync(repo);
  workspaceId = services.domain.workspaces.create({ name: 'main' }).id;
  projectId = services.domain.projects.create({ workspaceId, name: 'demo', repoPath: repo }).id;
  terminals = new TerminalManager({
    domain: services.domain,
    extensions: services.extensions,
    connections: services.connections,
    logger: services.logger,
    signalDir: services.signalDir,
    // The echo stand-in draws no prompt a reply could wait for: a short prompt wait, as an operator
    // of such a CLI would set (terminals.promptWaitMs); task-terminal-wiring tests the default wait.
    settings: { ...DEFAULT_TERMINAL_SETTINGS, stopGraceMs: 1500, interruptMs: 200, promptWaitMs: 1000 },
    svcHome: home,
    // What `svc serve` gets from the harness plugin's port.
    harnessFiles: locateHookFiles,
    hostEnv: env,
  });
  const stores = routingStores(services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: OWNER, ownerId: OWNER, trustedGroups: [], projectId: null, workspaceId } as never);
}, 60_000);

afterAll(async () => {
  await terminals?.close();
  await services?.close();
  rmSync(home, { recursive: true, force: true });
});

beforeEach(() => {
  // Each test parks its own task; none leaves an answer waiting to be typed for the next.
  expect(harnessStores(services).messages.undeliveredAnswers()).toEqual([]);
});

describe('reply_to_ask into the task terminal', () => {
  test('a live, parked terminal gets the reply typed once and runs again; a second reply is no_pending', async () => {
    const { taskId, askId } = await parkedOnQuestion('Which database');
    const answered = await call(replyToAsk, { taskId, reply: 'use postgres', via: 'gateway', platform: 'telegram', chatId: OWNER, senderId: OWNER });
    expect(answered).toMatchObject({ askId, taskId, result: 'already_running', executionId: terminals.summary(taskId)!.executionId });
    await waitFor(() => echoes(taskId, 'use postgres') === 1, 10_000, 'the reply echoed');
    expect(terminals.summary(taskId)!.state).toBe('RUNNING');
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', reply: 'use postgres', replied_via: 'gateway', resume_outcome: 'already_running' });
    await expect(call(replyToAsk, { taskId, reply: 'sqlite' })).rejects.toMatchObject({ code: 'no_pending' });
    await settle();
    expect(screen(taskId)).not.toContain('sqlite');
    await terminals.stop(taskId);
  }, 60_000);

  test('when the terminal is gone, the session is resumed with the reply as its next message', async () => {
    const { taskId, askId } = await parkedOnQuestion('Which port');
    const first = terminals.summary(taskId)!.executionId;
    await terminals.stop(taskId);
    const answered = await call(replyToAsk, { messageId: askId, reply: 'port 8080' });
    expect(answered).toMatchObject({ result: 'resumed', note: expect.stringContaining('resumed') });
    expect(answered.executionId).not.toBe(first);
    await waitFor(() => echoes(taskId, 'port 8080') === 1, 10_000, 'the reply echoed');
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', resume_outcome: 'resumed' });
    await terminals.stop(taskId);
  }, 60_000);

  test('a reply that cannot reach the task reopens the question: nothing is lost', async () => {
    const { taskId, askId } = await parkedOnQuestion('Which region');
    await terminals.stop(taskId);
    // The task was closed meanwhile: its session cannot be resumed.
    services.domain.tasks.update(taskId, { status: 'CANCELLED' });
    await expect(call(replyToAsk, { taskId, reply: 'eu-west' })).rejects.toMatchObject({ code: 'task_closed' });
    expect(askRow(askId)).toMatchObject({ status: 'OPEN', reply: null, replied_via: null, resume_outcome: null });
  }, 60_000);
});

describe('an answer a killed service recorded but never typed', () => {
  test('the next service start types it once, into the resumed session; a further start types nothing', async () => {
    const { taskId, askId } = await parkedOnQuestion('Blue-green or rolling');
    // What a service killed between answering and typing leaves: the ask ANSWERED, its typing owed,
    // and (once the service is gone) no live terminal.
    const messages = harnessStores(services).messages;
    expect(messages.answerForDelivery(askId, 'blue-green', 'gateway')).toBe(true);
    expect(askRow(askId).resume_outcome).toBe('delivering');
    await terminals.stop(taskId);

    const started = startHarness({ services, terminals, startWorker: false });
    await waitFor(() => askRow(askId).resume_outcome === 'resumed', 20_000, 'the answer typed');
    await waitFor(() => echoes(taskId, 'blue-green') === 1, 10_000, 'the answer echoed');
    await started.stop();
    expect(messages.undeliveredAnswers()).toEqual([]);

    const again = startHarness({ services, terminals, startWorker: false });
    await settle();
    await again.stop();
    expect(echoes(taskId, 'blue-green')).toBe(1);
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', reply: 'blue-green', resume_outcome: 'resumed' });
    await terminals.stop(taskId);
  }, 60_000);

  test('one that can no longer be typed reopens its question at the start', async () => {
    const { taskId, askId } = await parkedOnQuestion('Drop the table');
    harnessStores(services).messages.answerForDelivery(askId, 'yes', 'gateway');
    await terminals.stop(taskId);
    services.domain.tasks.update(taskId, { status: 'CANCELLED' });
    const started = startHarness({ services, terminals, startWorker: false });
    await waitFor(() => askRow(askId).status === 'OPEN', 20_000, 'the question open again');
    await started.stop();
    expect(askRow(askId)).toMatchObject({ status: 'OPEN', reply: null, replied_via: null, resume_outcome: null });
  }, 60_000);
});

describe('relay_channel_reply and continue_bound_task with a live terminal', () => {
  test('relay_channel_reply answers an OPEN ask in the terminal; a plain reply returns context only', async () => {
    const { taskId, askId } = await parkedOnQuestion('Ship it');
    expect(await call(relayChannelReply, { taskId, reply: 'ship it today' })).toMatchObject({ kind: 'answered_ask', taskId, context: { openAsk: null } });
    await waitFor(() => echoes(taskId, 'ship it today') === 1, 10_000, 'the reply echoed');
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', replied_via: 'gateway' });
    expect(await call(relayChannelReply, { taskId, reply: 'thanks!' })).toMatchObject({ kind: 'context_only', taskId });
    await settle();
    expect(screen(taskId)).not.toContain('thanks!');
    await terminals.stop(taskId);
  }, 60_000);

  test('a chat answer longer than reply_to_ask once took reaches the task whole, by relay or by a continue', async () => {
    // 20,000 characters: more than the 16,000 an answer was once held to, within the 32,000 a chat message may have.
    const long = (tag: string) => `${tag} ${'the migration plan, step by step. '.repeat(600)}`.slice(0, 20_000);
    const relayed = await parkedOnQuestion('Long relay');
    expect(await call(relayChannelReply, { taskId: relayed.taskId, reply: long('relay') })).toMatchObject({ kind: 'answered_ask', taskId: relayed.taskId });
    expect(askRow(relayed.askId)).toMatchObject({ status: 'ANSWERED', reply: long('relay'), replied_via: 'gateway' });
    await terminals.stop(relayed.taskId);

    const continued = await parkedOnQuestion('Long continue');
    await terminals.stop(continued.taskId);
    const message = { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'c-long', text: long('continue'), taskId: continued.taskId };
    expect(await call(continueBoundTask, message)).toMatchObject({ status: 'answered_ask', taskId: continued.taskId });
    expect(askRow(continued.askId)).toMatchObject({ status: 'ANSWERED', reply: long('continue'), resume_outcome: 'resumed' });
    await stopIfLive(continued.taskId);
  }, 60_000);

  test("an owner's continue answers the OPEN ask of a parked terminal once; a repeat is a noOp", async () => {
    const { taskId, askId } = await parkedOnQuestion('Migrate');
    const message = { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'c-1', text: 'continue: migrate', taskId };
    expect(await call(continueBoundTask, message)).toMatchObject({ status: 'answered_ask', taskId });
    await waitFor(() => echoes(taskId, 'continue: migrate') === 1, 10_000, 'the continue echoed');
    expect(terminals.summary(taskId)!.state).toBe('RUNNING');
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', reply: 'continue: migrate', resume_outcome: 'already_running' });
    expect(await call(continueBoundTask, message)).toMatchObject({ status: 'already_processed', noOp: true });
    await settle();
    expect(echoes(taskId, 'continue: migrate')).toBe(1);
    await terminals.stop(taskId);
  }, 60_000);

  test('a continue into a task whose terminal is gone answers its OPEN ask by resuming the session with it', async () => {
    const { taskId, askId } = await parkedOnQuestion('Gone');
    await terminals.stop(taskId);
    const message = { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'c-5', text: 'continue: yes', taskId };
    expect(await call(continueBoundTask, message)).toMatchObject({ status: 'answered_ask', taskId });
    await waitFor(() => echoes(taskId, 'continue: yes') === 1, 10_000, 'the continue echoed after the resume');
    expect(askRow(askId)).toMatchObject({ status: 'ANSWERED', resume_outcome: 'resumed' });
    expect(await call(continueBoundTask, message)).toMatchObject({ status: 'already_processed', noOp: true });
    await stopIfLive(taskId);
  }, 60_000);

  test('a continue without an open question is typed into the live terminal, or resumes the task first', async () => {
    const taskId = services.domain.tasks.create({ projectId, title: 'Keep going' }).id;
    await terminals.start(taskId, { connection: 'echo' });
    await waitFor(() => screen(taskId).includes('> '), 10_000, 'the prompt');
    const message = (id: string, text: string) => ({ platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: id, text, taskId });
    expect(await call(continueBoundTask, message('c-2', 'continue with the docs'))).toMatchObject({ status: 'injected', taskId });
    await waitFor(() => echoes(taskId, 'continue with the docs') === 1, 10_000, 'the continue echoed');
    await terminals.stop(taskId);
    expect(await call(continueBoundTask, message('c-3', 'continue with the tests'))).toMatchObject({ status: 'resumed', taskId });
    await waitFor(() => echoes(taskId, 'continue with the tests') === 1, 10_000, 'the continue echoed after the resume');
    await stopIfLive(taskId);
  }, 60_000);

  test('a continue from someone other than the owner is refused and nothing is typed', async () => {
    const { taskId, askId } = await parkedOnQuestion('Owner only');
    await expect(call(continueBoundTask, { platform: 'telegram', chatId: OWNER, senderId: '999', platformMessageId: 'c-4', text: 'continue', taskId })).rejects.toMatchObject({
      code: 'owner_required',
    });
    expect(askRow(askId).status).toBe('OPEN');
    await stopIfLive(taskId);
  }, 60_000);
});

describe('asking and review comments from and into a live terminal', () => {
  test('ask_human from a task whose terminal runs parks that terminal; the reply wakes it', async () => {
    const taskId = services.domain.tasks.create({ projectId, title: 'Asks itself' }).id;
    await terminals.start(taskId, { connection: 'echo' });
    await waitFor(() => screen(taskId).includes('> '), 10_000, 'the prompt');
    const asked = await call(askHuman, { taskId, question: 'Keep the old API?' });
    expect(asked).toMatchObject({ taskId, status: 'OPEN', parked: true, executionId: terminals.summary(taskId)!.executionId });
    expect(terminals.summary(taskId)!.state).toBe('PAUSED');
    await call(replyToAsk, { taskId, reply: 'keep it' });
    await waitFor(() => echoes(taskId, 'keep it') === 1, 10_000, 'the reply echoed');
    expect(terminals.summary(taskId)!.state).toBe('RUNNING');
    await terminals.stop(taskId);
  }, 60_000);

  test('send_review_comments types the review as one message into the live terminal, or resumes the session with it', async () => {
    const taskId = services.domain.tasks.create({ projectId, title: 'Reviewed' }).id;
    await terminals.start(taskId, { connection: 'echo' });
    await waitFor(() => screen(taskId).includes('> '), 10_000, 'the prompt');
    terminals.pause(taskId);
    const comments = [{ filename: 'src/a.ts', line: 3, body: 'rename this' }];
    expect(await call(sendReviewComments, { taskId, comments })).toMatchObject({ result: 'already_running', text: expect.stringContaining('src/a.ts:3: rename this') });
    await waitFor(() => screen(taskId).includes('rename this'), 10_000, 'the review typed');
    await terminals.stop(taskId);
    const resumed = await call(sendReviewComments, { taskId, comments: [{ filename: 'src/b.ts', side: 'old', line: 9, body: 'why removed?' }], summary: 'Nearly there.' });
    expect(resumed).toMatchObject({ result: 'resumed', text: expect.stringContaining('src/b.ts:9 (removed line): why removed?') });
    await waitFor(() => screen(taskId).includes('why removed?'), 10_000, 'the review typed after the resume');
    await terminals.stop(taskId);
  }, 60_000);
});
