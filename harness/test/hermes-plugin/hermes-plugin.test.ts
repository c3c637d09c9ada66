// The Hermes Agent plugin (harness/hermes-plugin) run by the system python3 inside a stand-in for
// Hermes's gateway (its MessageEvent / SessionSource shapes, its plugin loading and hook call),
// against a real `svc mcp` child (profile gateway) on a real database: identifiers come from the
// event's source, the answer goes back through the platform adapter to the same chat and thread and
// the message is skipped; a repeat says nothing; other messages go on to Hermes untouched.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, type SvcSandbox } from '../../../test/support/svc-process.js';
import { harnessPlugin } from '../../src/feature.js';

const PLUGIN = join(REPO_ROOT, 'harness/hermes-plugin');
const STAND_IN = join(import.meta.dirname, 'hermes-stand-in.py');
let svc: SvcSandbox;
let gatewayCredential: string;

interface Outcome {
  results: { action: string; reason?: string }[];
  sent: { chatId: string; content: string; replyTo: string | null; metadata: Record<string, string> | null }[];
}

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Feeds messages through the plugin inside the Hermes stand-in (one python3 process, one svc mcp). */
function hermes(messages: object[]): Promise<{ hooks: string[]; outcomes: Outcome[] }> {
  const settings = { command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: svc.home, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: gatewayCredential } };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [STAND_IN, PLUGIN, JSON.stringify(settings)], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`the Hermes stand-in exited ${code}\n${out}\n${err}`));
    });
    child.stdin.end(JSON.stringify(messages));
  });
}

// A Telegram forum-topic message as Hermes's Telegram adapter fills its SessionSource.
const topic = (message_id: string, user_id: string, text: string, extra: object = {}) => ({
  platform: 'telegram',
  chat_id: '-100777',
  chat_type: 'forum',
  thread_id: '5',
  user_id,
  user_name: `user ${user_id}`,
  message_id,
  text,
  ...extra,
});

beforeAll(async () => {
  svc = createSvcSandbox();
  mkdirSync(join(svc.home, 'repo'));
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', join(svc.home, 'repo')]);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', join(REPO_ROOT, 'test/fake-clis/hermes/hermes')]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--trusted-group=-100777']);
  // The plugin's env setting carries the gateway's credential: only it may say who sent a message.
  gatewayCredential = (JSON.parse(await ok(['gateway', 'credential', 'herm', '--json'])) as { credential: string }).credential;
}, 120_000);

afterAll(() => svc.cleanup());

test('svc messages are routed with the ids of the event source and answered through the adapter in the same topic; others go on to Hermes', async () => {
  const { hooks, outcomes } = await hermes([
    topic('81', '4242', '/svc how far is demo?'),
    topic('81', '4242', '/svc how far is demo?'),
    topic('82', '555', '/svc what is open in demo?'),
    topic('83', '4242', 'what is the weather?'),
    topic('84', '4242', '/svc'),
  ]);
  expect(hooks).toEqual(['pre_gateway_dispatch']);
  const [owner, repeat, member, other, empty] = outcomes as [Outcome, Outcome, Outcome, Outcome, Outcome];

  expect(owner.results).toEqual([{ action: 'skip', reason: 'handled by svc' }]);
  expect(owner.sent).toEqual([
    { chatId: '-100777', content: expect.stringMatching(/^svc: your question went to the project's Workbench \(request \d+\)/), replyTo: '81', metadata: { thread_id: '5' } },
  ]);
  // The same platform message delivered again: handled, and nothing said twice.
  expect(repeat).toEqual({ results: [{ action: 'skip', reason: 'handled by svc' }], sent: [] });
  // A trusted-group member who is not the owner gets the read-only answer.
  expect(member.results).toEqual([{ action: 'skip', reason: 'handled by svc' }]);
  expect(member.sent).toHaveLength(1);
  expect(member.sent[0]!.content).toContain('Project demo');
  // Not for svc: no answer at all (normal dispatch), so other plugins' skip or rewrite still counts.
  expect(other).toEqual({ results: [null], sent: [] });
  expect(empty.sent[0]!.content).toBe('Usage: /svc <question>, or /svc work <what to build>');

  const local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  try {
    const stored = local.db.prepare('SELECT platform, chat_id, thread_id, platform_message_id, sender_id, kind, request, text FROM harness_gateway_inbound').all();
    expect(stored.map((row) => ({ ...(row as object) }))).toEqual([
      { platform: 'telegram', chat_id: '-100777', thread_id: '5', platform_message_id: '81', sender_id: '4242', kind: 'message', request: 'discussion', text: 'how far is demo?' },
    ]);
    expect(owner.sent[0]!.content).toContain(`request ${(local.db.prepare('SELECT id FROM harness_gateway_inbound').get() as { id: number }).id}`);
  } finally {
    await local.close();
  }
}, 120_000);

test('a work request and a reply to an svc message carrying the task token are both routed; the token is taken from the quoted message', async () => {
  const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Fix the build', '--project', 'demo']))![1]);
  const { outcomes } = await hermes([
    { platform: 'telegram', chat_id: '4242', chat_type: 'dm', user_id: '4242', message_id: '91', text: '/svc work add a health check' },
    { platform: 'telegram', chat_id: '4242', chat_type: 'dm', user_id: '4242', message_id: '92', text: 'use port 8080', reply_to_message_id: '70', reply_to_text: `Build is red, which port?\n\n[[svc:task=${taskId}]]` },
  ]);
  const [work, reply] = outcomes as [Outcome, Outcome];
  expect(work.sent[0]).toMatchObject({ chatId: '4242', content: expect.stringContaining('your work request went'), replyTo: '91', metadata: null });
  expect(reply.results).toEqual([{ action: 'skip', reason: 'handled by svc' }]);
  const local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  try {
    const stored = local.db.prepare("SELECT platform_message_id, request, text, task_id FROM harness_gateway_inbound WHERE chat_id = '4242' ORDER BY id").all();
    expect(stored.map((row) => ({ ...(row as object) }))).toEqual([
      { platform_message_id: '91', request: 'work', text: 'add a health check', task_id: null },
      { platform_message_id: '92', request: 'discussion', text: `use port 8080 [[svc:task=${taskId}]]`, task_id: taskId },
    ]);
  } finally {
    await local.close();
  }
}, 120_000);
