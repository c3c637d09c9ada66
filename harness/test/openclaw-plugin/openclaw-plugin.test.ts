// The OpenClaw plugin's before_dispatch handler against a real `svc mcp` child (profile gateway) on
// a real database: identifiers come from the hook's event and context, the answer goes back as the
// hook result, a repeated delivery says nothing twice, and other messages are left to OpenClaw.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, type SvcSandbox } from '../../../test/support/svc-process.js';
import { harnessPlugin } from '../../src/feature.js';

type Handler = { handle(event: unknown, ctx: unknown): Promise<{ handled: boolean; text?: string } | undefined>; close(): void };
let svc: SvcSandbox;
let handler: Handler;

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  mkdirSync(join(svc.home, 'repo'));
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', join(svc.home, 'repo')]);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', join(REPO_ROOT, 'test/fake-clis/hermes/hermes')]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--trusted-group=-100777']);
  const plugin = (await import(pathToFileURL(join(REPO_ROOT, 'harness/openclaw-plugin/index.js')).href)) as { createHandler(config: unknown): Handler };
  // The plugin's own setting carries the gateway's credential: only it may say who sent a message.
  const { credential } = JSON.parse(await ok(['gateway', 'credential', 'herm', '--json'])) as { credential: string };
  handler = plugin.createHandler({ command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: svc.home, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: credential } });
}, 120_000);

afterAll(() => {
  handler?.close();
  svc.cleanup();
});

// The shapes OpenClaw gives for a Telegram forum-topic message.
const ctx = (messageId: string, senderId: string) => ({ channelId: 'telegram', accountId: 'default', conversationId: '-100777:topic:5', messageId, senderId });

test('an owner message for svc is routed once and answered in the same chat; a repeat says nothing', async () => {
  const first = await handler.handle({ content: '/svc how far is demo?', messageId: '81', senderId: '4242', isGroup: true }, ctx('81', '4242'));
  expect(first).toMatchObject({ handled: true, text: expect.stringContaining('Workbench') });
  const again = await handler.handle({ content: '/svc how far is demo?', messageId: '81', senderId: '4242', isGroup: true }, ctx('81', '4242'));
  expect(again).toEqual({ handled: true });
  const rows = JSON.parse(await ok(['task', 'list', '--json'])) as { items?: { title: string }[] } | { title: string }[];
  expect(JSON.stringify(rows)).toContain('Workbench');
  const local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  try {
    const stored = local.db.prepare('SELECT platform, chat_id, thread_id, platform_message_id, sender_id, text FROM harness_gateway_inbound').all();
    expect(stored.map((row) => ({ ...(row as object) }))).toEqual([
      { platform: 'telegram', chat_id: '-100777', thread_id: '5', platform_message_id: '81', sender_id: '4242', text: 'how far is demo?' },
    ]);
  } finally {
    await local.close();
  }
}, 60_000);

test('a trusted-group member who is not the owner gets a read-only answer', async () => {
  const answer = await handler.handle({ content: '/svc what is open in demo?', messageId: '82', senderId: '555', isGroup: true }, ctx('82', '555'));
  expect(answer).toMatchObject({ handled: true, text: expect.stringContaining('Project demo') });
}, 60_000);

test('a message not meant for svc is left to OpenClaw', async () => {
  expect(await handler.handle({ content: 'what is the weather?', messageId: '83', senderId: '4242' }, ctx('83', '4242'))).toBeUndefined();
}, 60_000);

// OpenClaw loads a plugin from plugins.load.paths at gateway start only when its manifest asks for it
// (2026.9.6); without it the hook never ran and every /svc message went to the model.
test('the manifest asks OpenClaw to load the plugin at gateway start, under the id the plugin registers', async () => {
  const dir = join(REPO_ROOT, 'harness/openclaw-plugin');
  const manifest = JSON.parse(readFileSync(join(dir, 'openclaw.plugin.json'), 'utf8')) as { id: string; activation?: { onStartup?: boolean } };
  const plugin = (await import(pathToFileURL(join(dir, 'index.js')).href)) as { default: { id: string } };
  expect(manifest.activation?.onStartup).toBe(true);
  expect(manifest.id).toBe(plugin.default.id);
});
