// Redaction of what a provider streams, through the real `svc query`: a registered secret used as
// an object key (a tool call's input, a log record's fields) is replaced like a value, and a
// secret split across two or three streamed text events never prints whole, in text or --json,
// in both isolation modes, while ordinary text still arrives complete.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const SECRET = 'PLANTED-connection-SECRET-7f3a9c';
let svc: SvcSandbox;
let dir: string;

const PROVIDER = `
const adapter = {
  buildSessionProcess() { return { command: 'true', args: [], envPatch: {} }; },
  async generate() { throw new Error('unused'); },
  async *stream(request, ctx) {
    const [verb, secret] = request.prompt.split(' ');
    if (verb === 'key') {
      ctx.host.log.info('tool input seen', { [secret]: 'as a key' });
      yield { type: 'tool-call', toolCallId: 'call-1', toolName: 'lookup', input: { [secret]: 'value', nested: { [secret + '-suffix']: 1 } } };
      yield { type: 'text', text: 'done\\n' };
    } else if (verb === 'split2') {
      yield { type: 'text', text: 'before ' + secret.slice(0, 9) };
      yield { type: 'text', text: secret.slice(9) + ' after\\n' };
    } else if (verb === 'split3') {
      yield { type: 'reasoning', text: 'thinking ' + secret.slice(0, 5) };
      yield { type: 'reasoning', text: secret.slice(5, 20) };
      yield { type: 'reasoning', text: secret.slice(20) + ' done' };
      yield { type: 'text', text: 'answer ' + secret.slice(0, 6) };
      yield { type: 'tool-call', toolCallId: 'call-2', toolName: 'noop', input: {} };
      yield { type: 'text', text: '\\n' };
    } else if (verb === 'prefix-only') {
      // Ends with what could begin the secret, and never completes it: it must still arrive.
      yield { type: 'text', text: 'the end: ' + secret.slice(0, 10) };
    }
    yield { type: 'finish', finishReason: 'stop' };
  },
};
export const svcCliPlugin = Object.freeze({ $marker: 'svc.cli-plugin', apiVersion: '1.0', createAdapter: () => adapter });
`;

beforeAll(async () => {
  svc = createSvcSandbox();
  dir = mkdtempSync(join(tmpdir(), 'svc-redaction-stream-'));
  const packageDir = join(dir, 'streamer');
  mkdirSync(packageDir);
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({
      name: '@svc-test/svc-provider-streamer',
      version: '1.0.0',
      private: true,
      type: 'module',
      exports: { './svc-cli-provider': './svc-cli-provider.js' },
      svc: {
        id: 'svc-test.streamer',
        publisher: 'svc-test',
        manifestVersion: 1,
        apiVersion: '1.0',
        kind: 'cli-provider',
        display: { name: 'Streamer (test)', description: 'Streams secrets in awkward places' },
        command: { default: 'svc-echo-cli', aliases: [], knownPaths: {}, versionArgs: ['--version'] },
        compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
        capabilities: { sessions: { fresh: true, resume: false }, query: { generate: false, stream: true }, models: false },
        permissions: [],
      },
    }),
  );
  writeFileSync(join(packageDir, 'svc-cli-provider.js'), PROVIDER);
  expect((await svc.run(['ext', 'dev', 'add', packageDir])).code).toBe(0);
  const add = await svc.run(['connection', 'add', 'streamer', '--provider', 'svc-test.streamer', '--env', `STREAMER_KEY=${SECRET}`]);
  expect(add.code, add.stderr).toBe(0);
});

afterAll(() => {
  svc?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const log = () => readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8');

describe.each(['worker', 'process'] as const)('isolation %s', (isolation) => {
  beforeAll(async () => {
    const enabled = await svc.run(['ext', 'enable', 'svc-test.streamer', '--yes', '--isolation', isolation]);
    expect(enabled.code, enabled.stderr).toBe(0);
  });

  test('a secret used as an object key is replaced in --json events and in the log', async () => {
    const result = await svc.run(['query', '--connection', 'streamer', '--json', `key ${SECRET}`], { env: { SVC_LOG_LEVEL: 'debug' } });
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; input?: Record<string, unknown> });
    expect(events.find((event) => event.type === 'tool-call')?.input).toEqual({ '[redacted]': 'value', nested: { '[redacted]-suffix': 1 } });
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(log()).toContain('tool input seen');
    expect(log()).not.toContain(SECRET);
  });

  test('a secret split across two text events never prints whole', async () => {
    const text = await svc.run(['query', '--connection', 'streamer', `split2 ${SECRET}`]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('before [redacted] after\n');
    const json = await svc.run(['query', '--connection', 'streamer', '--json', `split2 ${SECRET}`]);
    expect(json.stdout).not.toContain(SECRET);
    expect(json.stdout).not.toContain(SECRET.slice(0, 9));
    expect(json.stdout).toContain('[redacted]');
  });

  test('split across three events it is still replaced, and text held back goes out before the next other event', async () => {
    const json = await svc.run(['query', '--connection', 'streamer', '--json', `split3 ${SECRET}`]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toContain(SECRET.slice(0, 12));
    const events = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string });
    const reasoning = events.filter((event) => event.type === 'reasoning').map((event) => event.text).join('');
    expect(reasoning).toBe('thinking [redacted] done');
    const tool = events.findIndex((event) => event.type === 'tool-call');
    const texts = (from: number, to: number) => events.slice(from, to).filter((event) => event.type === 'text').map((event) => event.text).join('');
    expect(texts(0, tool)).toBe(`answer ${SECRET.slice(0, 6)}`);
    expect(texts(tool + 1, events.length)).toBe('\n');
    expect(events.at(-1)?.type).toBe('finish');
  });

  test('text that only begins the secret arrives whole at the end', async () => {
    const text = await svc.run(['query', '--connection', 'streamer', `prefix-only ${SECRET}`]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`the end: ${SECRET.slice(0, 10)}\n`);
  });
});
