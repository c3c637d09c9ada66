// The official Codex provider and the Qwen Code community sample forced into the hardened mode
// (`--isolation process`), through the real `svc` against the stand-in CLIs: the provider process
// reads only its package, and every CLI it needs is spawned by the host through the Host Context.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';

const CODEX = 'svc-official.codex';
const QWEN = 'svc-community.qwen-code';
let svc: SvcSandbox;
let home: string;
let project: string;

beforeAll(async () => {
  svc = createSvcSandbox([join(REPO_ROOT, 'test/fake-clis/codex'), join(REPO_ROOT, 'test/fake-clis/qwen')]);
  home = mkdtempSync(join(tmpdir(), 'svc-hardened-home-'));
  project = mkdtempSync(join(tmpdir(), 'svc-hardened-project-'));
  svc.env.HOME = home;
  expect((await svc.run(['ext', 'dev', 'add', join(REPO_ROOT, 'extensions/cli-providers/qwen-code')])).code).toBe(0);
  for (const id of [CODEX, QWEN]) {
    const enabled = await svc.run(['ext', 'enable', id, '--yes', '--isolation', 'process']);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain('runs as: process (hardened)');
  }
});
afterAll(() => svc.cleanup());

const events = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [k: string]: unknown });

describe('hardened', () => {
  test('both are listed as running in process mode', async () => {
    const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; isolation: { mode: string; enforces: string[] } }>;
    for (const id of [CODEX, QWEN]) {
      const row = rows.find((r) => r.id === id)!;
      expect(row.isolation.mode).toBe('process');
      expect(row.isolation.enforces).toContain('reads only its own package');
    }
  });

  test('codex answers a query and lists its models', async () => {
    const result = await svc.run(['query', '--json', '--provider', CODEX, '--cwd', project, 'say hi']);
    expect(result.code, result.stderr).toBe(0);
    const got = events(result.stdout);
    expect(got[0]!.type).toBe('session');
    expect(got.some((e) => e.type === 'text')).toBe(true);
    expect(got.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const models = await svc.run(['models', '--provider', CODEX, '--json']);
    expect(models.code, models.stderr).toBe(0);
    expect((JSON.parse(models.stdout) as Array<{ id: string }>).some((m) => m.id === 'gpt-5.5')).toBe(true);
  });

  test('codex installs and removes an MCP server through the host, leaving config.toml as it was', async () => {
    const configFile = join(home, '.codex', 'config.toml');
    const before = '# mine\nmodel = "gpt-5.5"\n';
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(configFile, before);
    const add = await svc.run(['integration', 'mcp', 'add', '--provider', CODEX, 'weather', '--command', 'node', '--arg', 'weather.mjs']);
    expect(add.code, add.stderr).toBe(0);
    expect(readFileSync(configFile, 'utf8')).toContain('[mcp_servers.weather]');
    expect((await svc.run(['integration', 'mcp', 'remove', '--provider', CODEX, 'weather'])).code).toBe(0);
    expect(readFileSync(configFile, 'utf8')).toBe(before);
  });

  test('qwen streams an answer with a tool call paired to its result', async () => {
    const result = await svc.run(['query', '--json', '--provider', QWEN, 'read hello.txt with a tool']);
    expect(result.code, result.stderr).toBe(0);
    const got = events(result.stdout);
    const call = got.find((e) => e.type === 'tool-call');
    expect(call?.toolName).toBe('read_file');
    expect(got.find((e) => e.type === 'tool-result')?.toolCallId).toBe(call?.toolCallId);
    expect(got.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });
});
