// Knowledge, daily summary/to-do, product groups and task history, reached as a person reaches them:
// commands whose flags come from the operations' declarations, and the HTTP routes of the same
// declarations on a running service, which answer exactly what the CLI's --json prints.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/adapters/cli/cli-io.js';
import { runCli } from '@svc-org/app/run-cli';
import { startService, type RunningService } from '@svc-org/app/start-service';

let home: string;
let service: RunningService;
let token: string;

async function svc(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = Object.assign(new Writable({ write: (chunk, _e, done) => ((out += String(chunk)), done()) }), { isTTY: false });
  const stderr = Object.assign(new Writable({ write: (chunk, _e, done) => ((err += String(chunk)), done()) }), { isTTY: false });
  const io = { stdin: Object.assign(new PassThrough(), { isTTY: false }), stdout, stderr, env: { ...process.env, SVC_HOME: home, NO_COLOR: '1' }, cwd: home } as unknown as CliIo;
  const code = await runCli(args, io);
  return { code, out, err };
}

async function json(...args: string[]): Promise<any> {
  const run = await svc(...args, '--json');
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.out);
}

async function http(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-generated-'));
  const repo = join(home, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'DEPLOY.md'), 'Deploy: merge to main and the pipeline ships the release.\n');
  service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0' }, builtins: false });
  token = readFileSync(join(home, 'token'), 'utf8').trim();
  expect((await svc('workspace', 'create', 'main')).code).toBe(0);
  expect((await svc('project', 'create', 'app', '--workspace', 'main', '--repo', repo)).code).toBe(0);
}, 60_000);
afterAll(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

describe('facts, notes and assets', () => {
  test('set, list and delete a fact by the project name; the route answers what --json prints', async () => {
    const set = await json('fact', 'set', 'deploy', 'merge to main', '--project', 'app');
    expect(set).toMatchObject({ action: 'set', fact: { key: 'deploy', value: 'merge to main' } });
    const listed = await json('fact', 'list', '--project', 'app');
    expect(listed.items.map((f: { key: string }) => f.key)).toEqual(['deploy']);
    const route = await http('GET', `/api/projects/${set.fact.projectId}/facts`);
    expect(route).toEqual({ status: 200, body: listed });
    // Reading is list_project_facts': manage_project_facts only writes.
    expect((await http('POST', `/api/projects/${set.fact.projectId}/facts`, { action: 'list' })).status).toBe(400);
    const text = await svc('fact', 'list', '--project', 'app');
    expect(text.out).toMatch(/KEY\s+VALUE/);
    expect(text.out).toContain('merge to main');
    expect((await json('fact', 'delete', 'deploy', '--project', 'app')).action).toBe('delete');
    expect((await json('fact', 'list', '--project', 'app')).items).toEqual([]);
  });

  test('notes: create, show, update, list and delete', async () => {
    const created = await json('note', 'create', 'Why libsql', '--project', 'app', '--body', 'one file, WAL');
    const id = String(created.note.id);
    const shown = await json('note', 'show', id);
    expect(shown).toMatchObject({ title: 'Why libsql', body: 'one file, WAL' });
    expect(await http('GET', `/api/knowledge/notes/${id}`)).toEqual({ status: 200, body: shown });
    expect((await json('note', 'update', id, '--title', 'Why libsql stays')).note.title).toBe('Why libsql stays');
    const listed = await json('note', 'list', '--project', 'app');
    expect(listed.items.map((n: { id: number }) => n.id)).toEqual([created.note.id]);
    expect(await http('GET', `/api/knowledge/notes?projectId=${created.note.projectId}`)).toEqual({ status: 200, body: listed });
    // Reading is list_notes' and get_note's: manage_notes only writes.
    expect((await http('POST', '/api/knowledge/notes', { action: 'list', projectId: created.note.projectId })).status).toBe(400);
    await json('note', 'delete', id);
    expect((await svc('note', 'show', id)).err).toContain('error note_not_found');
  });

  test('assets: add with an enum flag, show, list, remove', async () => {
    const added = await json('asset', 'add', 'design', '--project', 'app', '--kind', 'link', '--uri', 'https://design.example/app');
    expect(added.asset).toMatchObject({ name: 'design', kind: 'link' });
    const shown = await json('asset', 'show', String(added.asset.id));
    expect(shown).toEqual(added.asset);
    expect(await http('GET', `/api/knowledge/assets/${added.asset.id}`)).toEqual({ status: 200, body: shown });
    const listed = await json('asset', 'list', '--project', 'app');
    expect(listed.items).toEqual([added.asset]);
    expect(await http('GET', `/api/knowledge/assets?projectId=${added.asset.projectId}`)).toEqual({ status: 200, body: listed });
    // Reading is list_assets' and get_asset's: manage_assets only writes.
    expect((await http('POST', '/api/knowledge/assets', { action: 'list', projectId: added.asset.projectId })).status).toBe(400);
    const wrongKind = await svc('asset', 'add', 'x', '--project', 'app', '--kind', 'video', '--uri', 'u');
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.err).toContain('error invalid_request');
    await json('asset', 'remove', String(added.asset.id));
    expect((await json('asset', 'list', '--project', 'app')).items).toEqual([]);
  });
});

describe('search, knowledge and the day', () => {
  test('search and ask find the repository file; the routes answer the same', async () => {
    const hits = await json('search', 'pipeline', 'ships', '--project', 'app', '--kinds', 'file');
    expect(hits.hits.length).toBeGreaterThan(0);
    const route = await http('GET', `/api/search?query=${encodeURIComponent('pipeline ships')}&projectId=${(await json('project', 'show', 'app')).id}&kinds=file`);
    expect(route).toEqual({ status: 200, body: hits });
    const asked = await json('knowledge', 'ask', 'how', 'do', 'we', 'deploy?', '--project', 'app');
    expect(asked.projectName).toBe('app');
    expect(JSON.stringify(asked.passages)).toContain('DEPLOY.md');
  });

  test('daily summary and todo, all projects or one', async () => {
    const task = await json('task', 'create', 'Ship it', '--project', 'app');
    const summary = await json('daily', 'summary', '--project', 'app');
    expect(summary.tasksCreated.map((t: { id: number }) => t.id)).toContain(task.id);
    expect(await http('GET', `/api/daily/summary?projectId=${task.projectId}`)).toEqual({ status: 200, body: summary });
    const todo = await json('daily', 'todo', '--workspace', 'main');
    expect(todo.todo.map((t: { id: number }) => t.id)).toContain(task.id);
    const text = await svc('daily', 'todo');
    expect(text.out).toContain('Ship it');
  });
});

describe('product groups and task history', () => {
  test('a product group through the CLI and HTTP; delete answers 204', async () => {
    const project = await json('project', 'show', 'app');
    const created = await json('product-group', 'create', 'shop', '--workspace', 'main', '--project-ids', String(project.id));
    expect(created).toMatchObject({ name: 'shop', projectIds: [project.id] });
    expect(await http('GET', `/api/product-groups/${created.id}`)).toEqual({ status: 200, body: await json('product-group', 'show', String(created.id)) });
    expect((await json('product-group', 'list')).items).toHaveLength(1);
    expect((await http('DELETE', `/api/product-groups/${created.id}`)).status).toBe(204);
    expect((await json('product-group', 'list')).items).toEqual([]);
  });

  test('task versions and restore', async () => {
    const task = await json('task', 'create', 'First title', '--project', 'app');
    await json('task', 'update', String(task.id), '--title', 'Second title');
    const versions = await json('task', 'versions', String(task.id));
    expect(versions.items.length).toBeGreaterThanOrEqual(1);
    expect(await http('GET', `/api/tasks/${task.id}/versions`)).toEqual({ status: 200, body: versions });
    const first = versions.items.find((v: { title: string }) => v.title === 'First title');
    const restored = await json('task', 'restore-version', String(task.id), String(first.version));
    expect(restored.title).toBe('First title');
  });

  test('a wrong number of arguments is a usage error naming the positionals', async () => {
    const run = await svc('task', 'versions');
    expect(run.code).toBe(2);
    expect(run.err).toContain('expected <task-id>');
  });
});
