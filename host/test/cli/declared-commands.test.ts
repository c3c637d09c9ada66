// Commands derived from their operations' declarations (the `cli` part), run in-process as a person
// types them: positionals, renamed flags, clearing switches, pair flags, required flags, folders and ids read
// the way the hand-written commands read them, and a refused command changes nothing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../../../test/support/in-process-cli.js';

let home: string;
const svc = (...args: string[]) => runInProcess(home, ...args);
const json = async (...args: string[]) => {
  const run = await svc(...args, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
};

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-declared-'));
  mkdirSync(join(home, 'app'));
  mkdirSync(join(home, 'app-v2'));
  expect((await svc('workspace', 'create', 'main')).code).toBe(0);
  expect((await svc('project', 'create', 'app', '--workspace', 'main', '--repo', 'app')).code).toBe(0);
  expect((await svc('label', 'create', 'bug', '--project', 'app')).code).toBe(0);
  expect((await svc('task', 'create', 'Parent', '--project', 'app')).code).toBe(0);
  expect((await svc('task', 'create', 'Child', '--project', 'app', '--parent', '1', '--label', 'bug')).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('commands derived from declarations', () => {
  test('a list prints its table, and --json prints its items', async () => {
    const list = await svc('task', 'list', '-p', 'app', '--status', 'todo');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+PROJECT\s+STATUS\s+ATTENTION\s+PARENT\s+LABELS\s+TITLE\n1\s+app\s+TODO\s+idle\s+Parent\n2\s+app\s+TODO\s+idle\s+1\s+bug\s+Child\n$/);
    expect((await json('task', 'list', '--parent', '1')).map((task: { title: string }) => task.title)).toEqual(['Child']);
  });

  test('a rest positional of a list field takes every remaining argument, or none', async () => {
    expect((await svc('task', 'labels', '2', 'bug')).stdout).toBe('task 2 labels: bug\n');
    expect((await svc('task', 'labels', '2')).stdout).toBe('task 2 labels: (none)\n');
    expect((await json('task', 'show', '2')).labels).toEqual([]);
  });

  test('a clearing switch sets its field, and refuses its flag beside it without changing anything', async () => {
    const both = await svc('task', 'update', '2', '--parent', '1', '--no-parent');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--parent and --no-parent exclude each other');
    expect((await json('task', 'show', '2')).parentTaskId).toBe(1);
    expect((await svc('task', 'update', '2', '--no-parent', '--unattended')).stdout).toBe('task 2 updated (TODO)\n');
    expect(await json('task', 'show', '2')).toMatchObject({ parentTaskId: null, unattended: true });
    expect((await json('task', 'update', '2', '--attended')).unattended).toBe(false);
    const color = await svc('label', 'update', '1', '--color', '#00ff00', '--no-color');
    expect(color.code).toBe(2);
    expect(color.stderr).toContain('--color and --no-color exclude each other');
  });

  test('a required flag left out, or a word where an id belongs, is a usage error', async () => {
    const missing = await svc('label', 'list');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--project is required');
    const word = await svc('task', 'remove', 'first');
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('task id must be an id (a positive number), got "first"');
    const flag = await svc('execution', 'list', '--task', 'x');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--task must be an id (a positive number), got "x"');
    expect((await svc('task', 'move', '1')).stderr).toContain('expected <id> <status>');
    expect((await json('task', 'list')).length).toBe(2);
  });

  test('a pair flag without a key names the key typed, never the value, and a required flag shows the usage with it', async () => {
    const keyless = await svc('connection', 'add', 'work', '--provider', 'svc-official.claude-code', '--env', '=sk-ant-secret-value');
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('--env takes KEY=VALUE (got "")');
    expect(keyless.stderr).not.toContain('sk-ant-secret-value');
    const setting = await svc('connection', 'add', 'work', '--provider', 'svc-official.claude-code', '--set', 'model');
    expect(setting.stderr).toContain('--set takes key=value (got "model")');
    const missing = await svc('connection', 'add', 'work');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--provider is required\nusage: svc connection add <name> --provider <id>\n');
    const both = await svc('connection', 'set', 'work', '--enable', '--disable');
    expect(both.stderr).toContain('--enable and --disable exclude each other');
    expect(await json('connection', 'list')).toEqual([]);
  });

  test('a last optional argument may be left out, and one more is a usage error', async () => {
    expect((await svc('ext', 'stats')).code).toBe(0);
    const two = await svc('ext', 'stats', 'a', 'b');
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('expected at most one extension id\nusage: svc ext stats [<id>] [options]');
  });

  test('a folder flag is read from where the person stands', async () => {
    expect((await svc('project', 'update', 'app', '--repo', 'app-v2')).stdout).toBe('project 1 "app" updated\n');
    expect((await json('project', 'show', 'app')).repoPath).toBe(join(home, 'app-v2'));
  });
});
