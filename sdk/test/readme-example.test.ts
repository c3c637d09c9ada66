// sdk/README.md's examples, taken from the README itself, built into a provider the way an author
// builds one (esbuild, the SDK bundled), checked by the host's own preflight rules, and run.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfigSchema, checkEntry, checkManifest } from '@svc-org/extension-format/manifest';
import { cliStreamEvents, isCliPlugin, type CliAdapter, type CliStreamEvent, type CliStreamItem } from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

const SDK_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The code blocks the README marks with `<!-- example: <path> -->`, by path. */
function readmeExamples(readme: string): Map<string, string> {
  const examples = new Map<string, string>();
  for (const match of readme.matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)) examples.set(match[1]!, `${match[2]}\n`);
  return examples;
}

let dir: string;
let plain: CliAdapter;
let streaming: CliAdapter;

beforeAll(async () => {
  const examples = readmeExamples(await readFile(join(SDK_DIR, 'README.md'), 'utf8'));
  // The provider's files, and the guide's smaller examples (type-checked by readme-code-typechecks.test.ts).
  expect([...examples.keys()].sort()).toEqual([
    'config.schema.json',
    'package.json',
    'src/capabilities.ts',
    'src/classify-failure.ts',
    'src/fallback-warning.ts',
    'src/headless-only.ts',
    'src/index.ts',
    'src/settings.ts',
    'src/streaming.check.ts',
    'src/streaming.ts',
    'src/tool-ids.ts',
  ]);
  dir = await mkdtemp(join(tmpdir(), 'svc-readme-provider-'));
  for (const [path, text] of examples) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  // The README's build line, with the SDK resolved from this checkout instead of node_modules.
  for (const [entry, out] of [['src/index.ts', 'dist/svc-cli-provider.js'], ['src/streaming.ts', 'dist/streaming.js']] as const) {
    await build({
      entryPoints: [join(dir, entry)],
      outfile: join(dir, out),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      alias: { '@svc-org/ai-sdk': join(SDK_DIR, 'src/index.ts') },
    });
  }
  const entry = (await import(pathToFileURL(join(dir, 'dist/svc-cli-provider.js')).href)) as { svcCliPlugin: unknown };
  expect(isCliPlugin(entry.svcCliPlugin)).toBe(true);
  plain = await (entry.svcCliPlugin as { createAdapter(): CliAdapter }).createAdapter();
  const module = (await import(pathToFileURL(join(dir, 'dist/streaming.js')).href)) as { MyStreamingAdapter: new () => CliAdapter };
  streaming = new module.MyStreamingAdapter();
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const KEY = 'sk-my-cli-0123456789';

async function drain(events: AsyncIterable<CliStreamItem>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(events)) out.push(event);
  return out;
}

describe("the README's complete provider", () => {
  test('passes the host preflight rules for its manifest, entry and config schema', async () => {
    const manifest = await checkManifest(dir);
    expect(manifest).toMatchObject({ ok: true });
    if (!manifest.ok) return;
    expect(await checkEntry(dir, manifest.pkg)).toMatchObject({ ok: true });
    expect(await checkConfigSchema(dir, manifest.pkg.svc)).toMatchObject({ ok: true });
  });

  test('runs the CLI headless and answers with what it printed, the key only in its environment', async () => {
    const host = createTestHost({
      permissions: ['process:spawn', 'config:provider'],
      config: { model: 'large', apiKey: KEY },
      cli: { command: '/usr/bin/my-cli', version: '1.4.2' },
      spawn: () => ({ stdout: ['Hel', 'lo!\n'] }),
    });
    const result = await plain.generate({ prompt: 'hi', cwd: '/w', resume: 's-1' }, host.context());
    expect(result).toEqual({ text: 'Hello!', toolCalls: [], toolResults: [], warnings: [], finishReason: 'stop' });
    expect(host.spawned).toEqual([
      { command: '/usr/bin/my-cli', args: ['--model', 'large', '--resume', 's-1', '--prompt', 'hi'], cwd: '/w', envPatch: { MY_CLI_API_KEY: KEY }, stdin: '' },
    ]);
  });

  test('a failing CLI is an error result whose message carries the stderr tail without the key', async () => {
    const host = createTestHost({
      permissions: ['process:spawn', 'config:provider'],
      config: { apiKey: KEY },
      spawn: () => ({ stderr: `Invalid API key ${KEY}\n`, exitCode: 2 }),
    });
    const result = await plain.generate({ prompt: 'hi', cwd: '/w' }, host.context());
    expect(result.finishReason).toBe('error');
    expect(result.error).toEqual({ code: 'cli_auth_failed', message: 'my-cli exited with code 2: Invalid API key [redacted]' });
  });

  test('a cancel ends as cancelled, a deadline as a timeout error; both kill the CLI', async () => {
    const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout: 'thinking', hang: true }) });
    const cancelled = host.call();
    setTimeout(() => cancelled.cancel(), 10);
    expect(await drain(plain.stream!({ prompt: 'hi', cwd: '/w' }, cancelled.context))).toEqual([{ type: 'finish', finishReason: 'cancelled' }]);
    const late = host.call();
    setTimeout(() => late.expireDeadline(), 10);
    expect(await drain(plain.stream!({ prompt: 'hi', cwd: '/w' }, late.context))).toEqual([
      { type: 'error', code: 'timeout', message: 'my-cli did not answer in time' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(host.processes.map((p) => p.exit?.killedBy)).toEqual(['cancelled', 'timeout']);
  });

  test('builds the session process and resumes the session asked for', async () => {
    const host = createTestHost({ cli: { command: '/usr/bin/my-cli' } });
    expect(await plain.buildSessionProcess!({ mode: 'resume', sessionId: 's-1', cwd: '/w' }, host.context())).toEqual({
      command: '/usr/bin/my-cli',
      args: ['--resume', 's-1'],
      cwd: '/w',
      envPatch: {},
    });
  });
});

describe("the README's streaming provider", () => {
  const lines = ['{"type":"session","id":"s-9"}\n', '{"type":"text","text":"Hel"}\n', '{"type":"text","text":"lo"}\n', '{"type":"done","reason":"stop"}\n'];

  test('reads events split anywhere across chunks, and generate() collects the same stream', async () => {
    const joined = lines.join('');
    const chunks = [joined.slice(0, 7), { text: joined.slice(7, 40), delayMs: 5 }, joined.slice(40, 41), joined.slice(41)];
    const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout: chunks }) });
    expect(await drain(streaming.stream!({ prompt: 'hi', cwd: '/w' }, host.context()))).toEqual([
      { type: 'session', sessionId: 's-9' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(await streaming.generate({ prompt: 'hi', cwd: '/w' }, host.context())).toMatchObject({ text: 'Hello', sessionId: 's-9', finishReason: 'stop' });
  });

  test('a consumer that stops early kills the CLI', async () => {
    const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout: lines.slice(0, 2), hang: true }) });
    for await (const event of cliStreamEvents(streaming.stream!({ prompt: 'hi', cwd: '/w' }, host.context()))) {
      if (event.type === 'session') break;
    }
    expect(host.processes[0]!.kills).toEqual(['SIGTERM']);
  });

  test('a CLI that exits without its done line is cli_output_invalid; a deadline is a timeout', async () => {
    const short = createTestHost({ permissions: ['process:spawn', 'config:provider'], config: { apiKey: KEY }, spawn: () => ({ stdout: lines.slice(0, 2), stderr: `used ${KEY}\n` }) });
    expect((await drain(streaming.stream!({ prompt: 'hi', cwd: '/w' }, short.context()))).slice(-2)).toEqual([
      { type: 'error', code: 'cli_output_invalid', message: 'my-cli exited with code 0: used [redacted]' },
      { type: 'finish', finishReason: 'error' },
    ]);
    const slow = createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout: lines.slice(0, 1), hang: true }) });
    const result = await streaming.generate({ prompt: 'hi', cwd: '/w' }, slow.context({ timeoutMs: 20 }));
    expect(result).toMatchObject({ sessionId: 's-9', finishReason: 'error', error: { code: 'timeout' } });
  });
});
