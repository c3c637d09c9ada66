// The Codex official provider as a user meets it: shipped with the service (built-in, disabled),
// enabled with confirmation, queried, listed, used in a session, and its MCP and hook integrations
// installed and removed in the CLI's own config — against the stand-in replaying codex-cli 0.169.0.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-official.codex';
let svc: SvcSandbox;
let home: string;
let project: string;

beforeAll(async () => {
  svc = createSvcSandbox([join(REPO_ROOT, 'test/fake-clis/codex')]);
  home = mkdtempSync(join(tmpdir(), 'svc-codex-home-'));
  project = mkdtempSync(join(tmpdir(), 'svc-codex-project-'));
  svc.env.HOME = home;
});
afterAll(() => svc.cleanup());

describe('codex', () => {
  test('ships with the service, registered and disabled', async () => {
    const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; source: string; state: string }>;
    expect(rows.find((row) => row.id === ID)).toMatchObject({ source: 'builtin', state: 'disabled' });
  });

  test('enables after confirming its permissions', async () => {
    const result = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(result.code).toBe(0);
    for (const permission of ['process:spawn', 'integration:mcp', 'integration:hooks']) expect(result.stdout).toContain(permission);
  });

  test('answers a query', async () => {
    const result = await svc.run(['query', '--json', '--provider', ID, '--cwd', project, 'say hi']);
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(events[0].type).toBe('session');
    expect(events.some((e: { type: string }) => e.type === 'text')).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  test('lists its models from `codex debug models`', async () => {
    const result = await svc.run(['models', '--provider', ID, '--json']);
    expect(result.code).toBe(0);
    const models = JSON.parse(result.stdout) as Array<{ id: string }>;
    expect(models.length).toBeGreaterThan(1);
    expect(models.some((m) => m.id === 'gpt-5.5')).toBe(true);
  });

  test('installs, lists and removes an MCP server, leaving config.toml as it was', async () => {
    const configFile = join(home, '.codex', 'config.toml');
    const before = '# mine\nmodel = "gpt-5.5"\n';
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(configFile, before);
    const add = await svc.run(['integration', 'mcp', 'add', '--provider', ID, 'weather', '--command', 'node', '--arg', 'weather.mjs']);
    expect(add.code).toBe(0);
    expect(readFileSync(configFile, 'utf8')).toContain('[mcp_servers.weather]');
    const again = await svc.run(['integration', 'mcp', 'add', '--provider', ID, 'weather', '--command', 'node', '--arg', 'weather.mjs']);
    expect(again.code).toBe(0);
    const list = await svc.run(['integration', 'mcp', 'list', '--provider', ID, '--json']);
    expect((JSON.parse(list.stdout) as { entries: Array<{ name: string }> }).entries.map((e) => e.name)).toContain('weather');
    expect((await svc.run(['integration', 'mcp', 'remove', '--provider', ID, 'weather'])).code).toBe(0);
    expect(readFileSync(configFile, 'utf8')).toBe(before);
  });

  test('under CODEX_HOME, edits the config.toml Codex reads, says which, and refuses removals of missing or foreign servers', async () => {
    const codexHome = mkdtempSync(join(tmpdir(), 'svc-codex-codexhome-'));
    const configFile = join(codexHome, 'config.toml');
    writeFileSync(configFile, '[mcp_servers.theirs]\ncommand = "theirs-mcp"\n');
    svc.env.CODEX_HOME = codexHome;
    try {
      const add = await svc.run(['integration', 'mcp', 'add', '--provider', ID, 'weather', '--command', 'node', '--arg', 'weather.mjs']);
      expect(add.code, add.stderr).toBe(0);
      expect(add.stdout).toBe(`added MCP server weather in ${configFile}\n`);
      expect(readFileSync(configFile, 'utf8')).toContain('[mcp_servers.weather]');
      expect(existsSync(join(home, '.codex', 'config.toml')) ? readFileSync(join(home, '.codex', 'config.toml'), 'utf8') : '').not.toContain('weather');

      const list = await svc.run(['integration', 'mcp', 'list', '--provider', ID]);
      expect(list.stdout).toContain(configFile);
      expect(list.stdout).toMatch(/other\s+theirs/);
      expect(list.stdout).toMatch(/svc\s+weather/);

      const missing = await svc.run(['integration', 'mcp', 'remove', '--provider', ID, 'ghost']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('integration_not_found');
      const foreign = await svc.run(['integration', 'mcp', 'remove', '--provider', ID, 'theirs']);
      expect(foreign.code).not.toBe(0);
      expect(foreign.stderr).toContain('integration_not_owned');
      const forced = await svc.run(['integration', 'mcp', 'remove', '--provider', ID, 'theirs', '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toBe(`removed MCP server theirs from ${configFile} (it was not written by svc)\n`);
      expect((await svc.run(['integration', 'mcp', 'remove', '--provider', ID, 'weather'])).code).toBe(0);
      expect(readFileSync(configFile, 'utf8')).toBe('');
    } finally {
      delete svc.env.CODEX_HOME;
    }
  });

  test('a project-scope add and remove leaves no empty .codex folder in the project', async () => {
    const args = ['--provider', ID, '--scope', 'project', '--project-dir', project];
    expect((await svc.run(['integration', 'mcp', 'add', ...args, 'docs', '--command', 'docs-mcp'])).code).toBe(0);
    expect(readFileSync(join(project, '.codex', 'config.toml'), 'utf8')).toContain('[mcp_servers.docs]');
    const removed = await svc.run(['integration', 'mcp', 'remove', ...args, 'docs']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(project, '.codex'))).toBe(false);
  });

  test('installs and removes a PreToolUse hook', async () => {
    const add = await svc.run(['integration', 'hooks', 'add', '--provider', ID, '--matcher', 'request_user_input', '--command', '/usr/local/bin/svc-hook']);
    expect(add.code).toBe(0);
    const list = await svc.run(['integration', 'hooks', 'list', '--provider', ID, '--json']);
    expect(list.stdout).toContain('request_user_input');
    expect((await svc.run(['integration', 'hooks', 'remove', '--provider', ID, '--matcher', 'request_user_input', '--command', '/usr/local/bin/svc-hook'])).code).toBe(0);
    const after = await svc.run(['integration', 'hooks', 'list', '--provider', ID, '--json']);
    expect(after.stdout).not.toContain('request_user_input');
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false);
  });

  test('runs an interactive session in the host PTY', async () => {
    const term = pty.spawn(process.execPath, [SVC_BIN, 'session', '--provider', ID, '--cwd', project], { cols: 100, rows: 30, cwd: project, env: svc.env as Record<string, string> });
    let screen = '';
    term.onData((data) => (screen += data));
    const exited = new Promise<{ exitCode: number }>((resolve) => term.onExit(resolve));
    term.write('hello codex\r');
    await waitFor(() => screen.includes('you said: hello codex'), 15_000, 'the reply');
    term.write('\x04');
    expect((await exited).exitCode).toBe(0);
  });
});
