// For every read-only operation that has both a CLI command and an HTTP route (both from the one
// operation catalog), the real `svc … --json` prints exactly the JSON the real `svc serve` route
// answers, on a sandbox with data in it. A command that cannot be compared this way is listed below
// with its reason; a new read-only command with a route and neither a case nor a reason fails.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_COMMANDS } from '@svc-org/host/app/cli/all-commands';
import type { AnyOperation } from '@svc-org/host/operation-framework';
import { startService, type RunningService } from '@svc-org/host/app/start-service';

const SVC = fileURLToPath(new URL('../../host/bin/svc.mjs', import.meta.url));
const run = promisify(execFile);

let home: string;
let service: RunningService;
let token: string;
/** Ids of the sandbox's records, filled in once they exist. */
const ids: Record<string, number> = {};

/** How each compared command is run: its CLI arguments and the operation input its route gets. */
interface Case {
  args: () => string[];
  input: () => Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  'connection list': { args: () => [], input: () => ({}) },
  'workspace list': { args: () => [], input: () => ({}) },
  'workspace show': { args: () => ['main'], input: () => ({ id: ids.workspace }) },
  'project list': { args: () => [], input: () => ({}) },
  'project show': { args: () => ['app'], input: () => ({ id: ids.project }) },
  'label list': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'label show': { args: () => [String(ids.label)], input: () => ({ id: ids.label }) },
  'task list': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'task show': { args: () => [String(ids.task)], input: () => ({ id: ids.task }) },
  'task terminals': { args: () => [], input: () => ({}) },
  'task branches': { args: () => [], input: () => ({}) },
  'task versions': { args: () => [String(ids.task)], input: () => ({ taskId: ids.task }) },
  'task approvals': { args: () => [String(ids.task)], input: () => ({ taskId: ids.task }) },
  'execution list': { args: () => [], input: () => ({}) },
  search: { args: () => ['pipeline', '--project', 'app'], input: () => ({ query: 'pipeline', projectId: ids.project }) },
  'knowledge ask': { args: () => ['how', 'do', 'we', 'deploy?', '--project', 'app'], input: () => ({ question: 'how do we deploy?', projectId: ids.project }) },
  'note list': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'note show': { args: () => [String(ids.note)], input: () => ({ noteId: ids.note }) },
  'fact list': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'asset list': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'asset show': { args: () => [String(ids.asset)], input: () => ({ assetId: ids.asset }) },
  'daily summary': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'daily todo': { args: () => ['--project', 'app'], input: () => ({ projectId: ids.project }) },
  'product-group list': { args: () => [], input: () => ({}) },
  'product-group show': { args: () => [String(ids.productGroup)], input: () => ({ id: ids.productGroup }) },
  'harness list': { args: () => [], input: () => ({}) },
  status: { args: () => [], input: () => ({}) },
  'gateway list': { args: () => [], input: () => ({}) },
  'channel list': { args: () => [], input: () => ({}) },
};

/** Read-only commands with a route that this test does not compare, and why. */
const NOT_COMPARED: Record<string, string> = {
  'connection show': 'a connection needs an installed provider; the sandbox service runs without the built-in ones',
  'ext show': 'needs a registered extension; the sandbox service runs without the built-in ones',
  'ext stats': 'lists every registered extension: the CLI registers the built-in ones, the sandbox service runs without them',
  'task output': 'needs a running task terminal (a real CLI in a PTY): its buffer changes while it is read',
  'task status': 'needs a task terminal; the live process state changes between the two reads',
  'task diff': 'needs a task worktree with changes (a task execution)',
  'execution show': 'needs a task execution (a CLI run in a terminal)',
  'knowledge identify': 'answers from the caller\'s working directory, which the CLI takes from its own and the route from its query',
  'harness show': 'needs a message from an unattended task to a person through a gateway',
  'gateway show': 'needs a configured chat gateway (with its own credentials)',
  'gateway health': 'probes a live chat gateway',
};

/**
 * Where the CLI's --json has its own documented shape, the exact difference: a list prints the
 * route's `items` array alone (the route's object has nothing else), and a `show` adds related
 * records it reads with a second operation (the command's `alsoUses`). Everything else is equal.
 */
const CLI_SHAPE: Record<string, { items: true } | { adds: string[] }> = {
  'connection list': { items: true },
  'workspace list': { items: true },
  'workspace show': { adds: ['projects'] },
  'project list': { items: true },
  'project show': { adds: ['labels'] },
  'label list': { items: true },
  'task list': { items: true },
  'task show': { adds: ['executions'] },
  'task terminals': { items: true },
  'task branches': { items: true },
  'execution list': { items: true },
  'gateway list': { items: true },
  'channel list': { items: true },
};

const key = (command: (typeof ALL_COMMANDS)[number]) => [command.group, command.name].filter(Boolean).join(' ');

/** Read-only operations that have both faces: a JSON CLI command and an HTTP route. */
const bothFaces = ALL_COMMANDS.filter((command) => {
  const operation = command.operation as AnyOperation | undefined;
  return operation?.readOnly === true && operation.http !== undefined && command.json === true;
});

async function svcJson(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [SVC, ...args, '--json'], {
    env: { ...process.env, SVC_HOME: home, NO_COLOR: '1' },
    cwd: home,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/** The request the route takes for `input`: path parameters from it, the rest as query (GET, DELETE) or body. */
async function httpJson(operation: AnyOperation, input: Record<string, unknown>): Promise<unknown> {
  const route = operation.http!;
  const rest = { ...input };
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const inQuery = route.method === 'GET' || route.method === 'DELETE';
  const query = inQuery ? new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString() : '';
  const response = await fetch(`${service.url}${path}${query ? `?${query}` : ''}`, {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, ...(inQuery ? {} : { 'content-type': 'application/json' }) },
    ...(inQuery ? {} : { body: JSON.stringify(rest) }),
  });
  const text = await response.text();
  expect(response.status, `${route.method} ${path}: ${text}`).toBe(route.status ?? 200);
  return JSON.parse(text);
}

async function post(path: string, body: unknown): Promise<{ id: number }> {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `POST ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as { id: number };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-faces-'));
  const repo = join(home, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'DEPLOY.md'), 'Deploy: merge to main and the pipeline ships the release.\n');
  service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0' }, builtins: false });
  token = readFileSync(join(home, 'token'), 'utf8').trim();
  ids.workspace = (await post('/api/workspaces', { name: 'main' })).id;
  ids.project = (await post('/api/projects', { name: 'app', workspaceId: ids.workspace, repoPath: repo })).id;
  ids.label = (await post(`/api/projects/${ids.project}/labels`, { name: 'bug', color: '#cc0000' })).id;
  ids.task = (await post('/api/tasks', { projectId: ids.project, title: 'Ship the pipeline', description: 'merge to main' })).id;
  await post('/api/tasks', { projectId: ids.project, title: 'Write the notes' });
  ids.note = ((await post('/api/knowledge/notes', { action: 'create', projectId: ids.project, title: 'Why libsql', body: 'one file' })) as unknown as { note: { id: number } }).note.id;
  await post(`/api/projects/${ids.project}/facts`, { action: 'set', key: 'deploy', value: 'merge to main' });
  ids.asset = ((await post('/api/knowledge/assets', { action: 'add', projectId: ids.project, name: 'design', kind: 'link', uri: 'https://design.example/app' })) as unknown as { asset: { id: number } }).asset.id;
  ids.productGroup = (await post('/api/product-groups', { name: 'storefront', workspaceId: ids.workspace })).id;
}, 120_000);
afterAll(async () => {
  await service?.close();
  rmSync(home, { recursive: true, force: true });
});

test('every read-only command with a route is compared or has a stated reason', () => {
  const unaccounted = bothFaces.map(key).filter((name) => !(name in CASES) && !(name in NOT_COMPARED));
  expect(unaccounted).toEqual([]);
  // And nothing is listed that is not such a command (a renamed one would hide here).
  const listed = [...Object.keys(CASES), ...Object.keys(NOT_COMPARED)];
  expect(listed.filter((name) => !bothFaces.some((command) => key(command) === name))).toEqual([]);
});

describe('svc … --json and the HTTP route answer the same JSON', () => {
  test.each(Object.keys(CASES))('%s', async (name) => {
    const command = bothFaces.find((candidate) => key(candidate) === name)!;
    const cli = await svcJson([...name.split(' '), ...CASES[name]!.args()]);
    const http = (await httpJson(command.operation as AnyOperation, CASES[name]!.input())) as Record<string, unknown>;
    const shape = CLI_SHAPE[name];
    if (shape === undefined) expect(cli).toEqual(http);
    else if ('items' in shape) {
      expect(Object.keys(http)).toEqual(['items']);
      expect(cli).toEqual(http.items);
    } else {
      const record = cli as Record<string, unknown>;
      for (const field of shape.adds) expect(record).toHaveProperty(field);
      expect(Object.fromEntries(Object.entries(record).filter(([field]) => !shape.adds.includes(field)))).toEqual(http);
    }
  }, 60_000);
});
