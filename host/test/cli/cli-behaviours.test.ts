// The CLI as a person meets it, run in-process over a temp SVC_HOME with the echo fixture provider.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { inProcessCli } from '../../../test/support/in-process-cli.js';

let home: string;
const SECRET_ENV = 'tok-4f9a2c81e7d3';

function cli(options: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  return inProcessCli(home, options);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  const setup = cli();
  expect(await setup.run('ext', 'dev', 'add', copyFixtureProvider('echo'))).toBe(0);
  expect(await setup.run('ext', 'enable', 'svc-test.echo', '--yes')).toBe(0);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('connections', () => {
  test('--arg values that start with "-" are taken as values (README: --arg --verbose)', async () => {
    const add = cli();
    expect(await add.run('connection', 'add', 'dashes', '--provider', 'svc-test.echo', '--arg', '--verbose', '--arg', '-x')).toBe(0);
    const shown = cli();
    expect(await shown.run('connection', 'show', 'dashes', '--json')).toBe(0);
    expect(JSON.parse(shown.out()).baseArgs).toEqual(['--verbose', '-x']);
    const set = cli();
    expect(await set.run('connection', 'set', 'dashes', '--arg', '--debug')).toBe(0);
    const again = cli();
    await again.run('connection', 'show', 'dashes', '--json');
    expect(JSON.parse(again.out()).baseArgs).toEqual(['--debug']);
  });

  test('env values are masked in show, list and --json (before: `connection show` printed them in clear)', async () => {
    const add = cli();
    expect(await add.run('connection', 'add', 'keyed', '--provider', 'svc-test.echo', '--env', `MY_TOKEN=${SECRET_ENV}`, '--env', 'REGION=eu-west-sample')).toBe(0);
    for (const args of [['connection', 'show', 'keyed'], ['connection', 'show', 'keyed', '--json'], ['connection', 'list', '--json']]) {
      const c = cli();
      expect(await c.run(...args)).toBe(0);
      expect(c.out()).not.toContain(SECRET_ENV);
      expect(c.out()).not.toContain('eu-west-sample');
      expect(c.out()).toContain('MY_TOKEN');
    }
  });
});

describe('records', () => {
  test('--json prints the record a command made, and nothing else', async () => {
    const ws = cli();
    expect(await ws.run('workspace', 'create', 'json-ws', '--json')).toBe(0);
    expect(JSON.parse(ws.out())).toMatchObject({ name: 'json-ws', id: expect.any(Number) });
    // A folder of its own: SVC_HOME itself (the CLI's working folder here) is refused as a repository.
    mkdirSync(join(home, 'json-app'));
    const project = cli();
    expect(await project.run('project', 'create', 'json-app', '--workspace', 'json-ws', '--repo', 'json-app', '--json')).toBe(0);
    const task = cli();
    expect(await task.run('task', 'create', 'Write docs', '--project', 'json-app', '--json')).toBe(0);
    const id = JSON.parse(task.out()).id as number;
    const moved = cli();
    expect(await moved.run('task', 'move', String(id), 'in-progress', '--json')).toBe(0);
    expect(JSON.parse(moved.out())).toMatchObject({ id, status: 'IN_PROGRESS' });
    const removed = cli();
    expect(await removed.run('task', 'remove', String(id), '--json')).toBe(0);
    expect(JSON.parse(removed.out())).toMatchObject({ id, title: 'Write docs' });
  });
});

describe('terminal output', () => {
  test('colour on a terminal, none when piped or with NO_COLOR', async () => {
    const tty = cli({ tty: true });
    await tty.run('workspace', 'list');
    expect(tty.out()).toContain('\u001b[1m');
    const piped = cli({ tty: false });
    await piped.run('workspace', 'list');
    expect(piped.out()).not.toContain('\u001b[');
    const noColor = cli({ tty: true, env: { NO_COLOR: '1' } });
    await noColor.run('workspace', 'list');
    expect(noColor.out()).not.toContain('\u001b[');
  });

  test('show prints what an agent wrote (a title, a description) as visible escapes: it cannot clear the screen or retitle the terminal', async () => {
    const title = 'Fix \u001b[2J\u001b[Hthe build';
    const description = 'first line\n\u001b]0;owned\u0007second line \u202eevil';
    expect(await cli().run('workspace', 'create', 'esc-ws', '--description', description)).toBe(0);
    mkdirSync(join(home, 'esc-app'), { recursive: true });
    const project = cli();
    expect(await project.run('project', 'create', 'esc-app', '--workspace', 'esc-ws', '--repo', 'esc-app', '--description', description), project.err()).toBe(0);
    const created = cli();
    expect(await created.run('task', 'create', title, '--project', 'esc-app', '--description', description, '--json')).toBe(0);
    const id = String(JSON.parse(created.out()).id);
    for (const args of [['task', 'show', id], ['project', 'show', 'esc-app'], ['workspace', 'show', 'esc-ws']]) {
      const shown = cli({ tty: true, env: { NO_COLOR: '1' } });
      expect(await shown.run(...args)).toBe(0);
      expect(shown.out()).not.toMatch(/[\u001b\u0007\u202e]/);
      expect(shown.out()).toContain('first line\n');
      expect(shown.out()).toContain('\\e]0;owned\\x07second line \\u202eevil');
      if (args[0] === 'task') expect(shown.out()).toContain('Fix \\e[2J\\e[Hthe build');
    }
  });
});

describe('interactive commands without a terminal', () => {
  test('svc task attach refuses at once with terminal_required (before: "error internal: terminated")', async () => {
    const c = cli();
    const started = Date.now();
    expect(await c.run('task', 'attach', '1')).toBe(1);
    expect(c.err()).toContain('error terminal_required');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('an operation that lives in the service says so when the service is down', async () => {
    const c = cli();
    expect(await c.run('task', 'output', '1')).toBe(1);
    expect(c.err()).toContain('error server_not_running');
    expect(c.err()).toContain('svc serve');
  });
});

describe('words for the person', () => {
  const help = async (...args: string[]) => {
    const c = cli();
    expect(await c.run(...args, '--help')).toBe(0);
    return c.out();
  };

  test('help speaks in flags and words, never the API fields (before: "deleteBranch", "expectTip", "dryRun")', async () => {
    const discard = await help('task', 'discard');
    expect(discard).toContain('--delete-branch');
    expect(discard).toContain('--dry-run');
    for (const text of [discard, await help('task', 'merge')]) expect(text).not.toMatch(/deleteBranch|expectTip|dryRun|commitPending|keepOpen/);
    const set = await help('fact', 'set');
    const del = await help('fact', 'delete');
    expect(set.split('\n')[0]).not.toBe(del.split('\n')[0]);
    for (const text of [set, del, await help('note', 'create'), await help('asset', 'add')]) expect(text).not.toMatch(/manage_|list_project_facts|action set|projectId|taskId/);
  });

  test('the task, project, fact, note and asset commands are listed without API names (snake_case tools, camelCase fields)', async () => {
    for (const group of ['task', 'project', 'fact', 'note', 'asset']) {
      const c = cli();
      expect(await c.run(group, '--help')).toBe(0);
      const listing = c.out().split('\n').filter((line) => /^\s+\S+\s{2,}/.test(line));
      expect(listing.length, group).toBeGreaterThan(0);
      for (const line of listing) expect(line, `${group}: ${line}`).not.toMatch(/[a-z][A-Z][a-z]+|\b[a-z]+_[a-z_]+\b/);
    }
  });

  test('svc task discard --dry-run exists as its help says', async () => {
    const c = cli();
    // No such task: the flag is taken, and the task is what is missing.
    expect(await c.run('task', 'discard', '999', '--dry-run')).toBe(1);
    expect(c.err()).toContain('task_not_found');
  });

  test('an unknown flag gets a "did you mean", in svc\'s words (before: Node\'s parser text)', async () => {
    const c = cli();
    expect(await c.run('task', 'list', '--projct', 'app')).toBe(2);
    expect(c.err()).toContain('unknown option --projct — did you mean --project?');
    expect(c.err()).not.toContain('To specify a positional argument');
    const value = cli();
    expect(await value.run('task', 'merge', '1', '--stop=yes')).toBe(2);
    expect(value.err()).toContain('--stop takes no value');
    const missing = cli();
    expect(await missing.run('task', 'list', '--project')).toBe(2);
    expect(missing.err()).toContain('--project needs a value');
  });

  test('an unknown setting gets a "did you mean" too', async () => {
    const c = cli();
    expect(await c.run('config', 'set', 'terminals.keepalivMs', '5000')).toBe(1);
    expect(c.err()).toContain('did you mean "terminals.keepaliveMs"?');    const setting = cli();
    expect(await setting.run('connection', 'add', 'typo', '--provider', 'svc-test.echo', '--set', 'apiKy=sk-test-1')).toBe(1);
    expect(setting.err()).toContain('unknown setting "apiKy" — did you mean "apiKey"?');
  });
});
