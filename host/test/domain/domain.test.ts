import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';

let dir: string;
let db: Db;
let domain: Domain;
let repo: string;
const signals: Array<[number, boolean]> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-domain-'));
  repo = join(dir, 'repo');
  mkdirSync(repo);
  db = openDatabase(join(dir, 'svc.db'));
  signals.length = 0;
  domain = new Domain(db, { signals: { setUnattended: (taskId, on) => signals.push([taskId, on]) } });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `work` and returns the error code it threw. */
function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

function project(name = 'app') {
  const workspace = domain.workspaces.list()[0] ?? domain.workspaces.create({ name: 'main' });
  return domain.projects.create({ workspaceId: workspace.id, name, repoPath: repo });
}

describe('workspaces and projects', () => {
  test('creates, finds by id or name, updates and removes a workspace', () => {
    const created = domain.workspaces.create({ name: 'main', description: 'day job' });
    expect(domain.workspaces.resolve('main').id).toBe(created.id);
    expect(domain.workspaces.resolve(String(created.id)).name).toBe('main');
    expect(domain.workspaces.update(created.id, { name: 'work' }).name).toBe('work');
    domain.workspaces.remove(created.id);
    expect(domain.workspaces.list()).toEqual([]);
  });

  test('refuses a duplicate workspace name', () => {
    domain.workspaces.create({ name: 'main' });
    expect(codeOf(() => domain.workspaces.create({ name: 'main' }))).toBe('workspace_exists');
  });

  test('refuses names that would read as ids, and empty names', () => {
    expect(codeOf(() => domain.workspaces.create({ name: '42' }))).toBe('invalid_request');
    expect(codeOf(() => domain.workspaces.create({ name: '   ' }))).toBe('invalid_request');
  });

  test('names a missing workspace', () => {
    expect(codeOf(() => domain.workspaces.get(99))).toBe('workspace_not_found');
    expect(codeOf(() => domain.workspaces.resolve('nope'))).toBe('workspace_not_found');
  });

  test('refuses to remove a workspace that still has projects', () => {
    const app = project();
    expect(codeOf(() => domain.workspaces.remove(app.workspaceId))).toBe('workspace_not_empty');
  });

  test('refuses a duplicate project name in the same workspace but allows it in another', () => {
    project('app');
    expect(codeOf(() => project('app'))).toBe('project_exists');
    const other = domain.workspaces.create({ name: 'other' });
    expect(domain.projects.create({ workspaceId: other.id, name: 'app', repoPath: repo }).name).toBe('app');
    expect(codeOf(() => domain.projects.resolve('app'))).toBe('project_ambiguous');
    expect(domain.projects.resolve('app', other.id).workspaceId).toBe(other.id);
  });

  test('refuses a repository path that is relative or not a folder', () => {
    const workspace = domain.workspaces.create({ name: 'main' });
    expect(codeOf(() => domain.projects.create({ workspaceId: workspace.id, name: 'a', repoPath: 'relative/repo' }))).toBe('invalid_request');
    expect(codeOf(() => domain.projects.create({ workspaceId: workspace.id, name: 'a', repoPath: join(dir, 'missing') }))).toBe('repository_not_found');
    expect(codeOf(() => domain.projects.create({ workspaceId: 77, name: 'a', repoPath: repo }))).toBe('workspace_not_found');
  });

  test('refuses to remove a project that still has tasks', () => {
    const app = project();
    domain.tasks.create({ projectId: app.id, title: 'one' });
    expect(codeOf(() => domain.projects.remove(app.id))).toBe('project_not_empty');
  });
});

describe('tasks', () => {
  test('a new task is TODO with labels in name order', () => {
    const app = project();
    domain.labels.create({ projectId: app.id, name: 'ui' });
    domain.labels.create({ projectId: app.id, name: 'bug', color: '#ff0000' });
    const task = domain.tasks.create({ projectId: app.id, title: 'Fix the button', labels: ['ui', 'bug'] });
    expect(task).toMatchObject({ status: 'TODO', labels: ['bug', 'ui'], parentTaskId: null, unattended: false });
    expect(domain.tasks.list({ projectId: app.id }).map((t) => t.id)).toEqual([task.id]);
  });

  test('refuses a label the project does not have', () => {
    const app = project();
    expect(codeOf(() => domain.tasks.create({ projectId: app.id, title: 't', labels: ['nope'] }))).toBe('label_not_found');
  });

  test('refuses a duplicate label name and a bad color', () => {
    const app = project();
    domain.labels.create({ projectId: app.id, name: 'ui' });
    expect(codeOf(() => domain.labels.create({ projectId: app.id, name: 'ui' }))).toBe('label_exists');
    expect(codeOf(() => domain.labels.create({ projectId: app.id, name: 'red', color: 'red' }))).toBe('invalid_request');
  });

  test('removing a label takes it off its tasks', () => {
    const app = project();
    const label = domain.labels.create({ projectId: app.id, name: 'ui' });
    const task = domain.tasks.create({ projectId: app.id, title: 't', labels: ['ui'] });
    domain.labels.remove(label.id);
    expect(domain.tasks.get(task.id).labels).toEqual([]);
  });

  test('moves along the board and refuses moves the board does not allow', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't' });
    expect(domain.tasks.update(task.id, { status: 'IN_PROGRESS' }).status).toBe('IN_PROGRESS');
    expect(domain.tasks.update(task.id, { status: 'CANCELLED' }).status).toBe('CANCELLED');
    expect(codeOf(() => domain.tasks.update(task.id, { status: 'DONE' }))).toBe('invalid_status_transition');
    expect(codeOf(() => domain.tasks.update(task.id, { status: 'IN_REVIEW' }))).toBe('invalid_status_transition');
    expect(domain.tasks.update(task.id, { status: 'TODO' }).status).toBe('TODO');
  });

  test('refuses an unknown status', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't' });
    expect(codeOf(() => domain.tasks.update(task.id, { status: 'WAITING' as never }))).toBe('invalid_request');
  });

  test('a parent must exist and be in the same project', () => {
    const app = project('app');
    const web = project('web');
    const parent = domain.tasks.create({ projectId: web.id, title: 'parent elsewhere' });
    expect(codeOf(() => domain.tasks.create({ projectId: app.id, title: 'child', parentTaskId: parent.id }))).toBe('parent_in_other_project');
    expect(codeOf(() => domain.tasks.create({ projectId: app.id, title: 'child', parentTaskId: 999 }))).toBe('parent_not_found');
  });

  test('refuses a parent that would close a cycle, including the task itself', () => {
    const app = project();
    const a = domain.tasks.create({ projectId: app.id, title: 'a' });
    const b = domain.tasks.create({ projectId: app.id, title: 'b', parentTaskId: a.id });
    const c = domain.tasks.create({ projectId: app.id, title: 'c', parentTaskId: b.id });
    expect(codeOf(() => domain.tasks.update(a.id, { parentTaskId: c.id }))).toBe('task_cycle');
    expect(codeOf(() => domain.tasks.update(a.id, { parentTaskId: a.id }))).toBe('task_cycle');
    expect(domain.tasks.update(c.id, { parentTaskId: null }).parentTaskId).toBeNull();
    expect(domain.tasks.list({ parentTaskId: a.id }).map((t) => t.id)).toEqual([b.id]);
  });

  test('refuses to remove a task with children', () => {
    const app = project();
    const a = domain.tasks.create({ projectId: app.id, title: 'a' });
    domain.tasks.create({ projectId: app.id, title: 'b', parentTaskId: a.id });
    expect(codeOf(() => domain.tasks.remove(a.id))).toBe('task_has_children');
  });

  test('the unattended shadow follows the signal, which is written first-hand', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't', unattended: true });
    expect(task.unattended).toBe(true);
    expect(domain.tasks.update(task.id, { unattended: false }).unattended).toBe(false);
    domain.tasks.remove(task.id);
    expect(signals).toEqual([
      [task.id, true],
      [task.id, false],
      [task.id, false],
    ]);
  });
});

describe('executions', () => {
  const start = (taskId: number) =>
    domain.executions.create({ taskId, connectionId: null, connectionName: 'c', providerId: 'p', mode: 'fresh', sessionId: null });

  test('a task has at most one live execution, enforced by the database', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't' });
    const first = start(task.id);
    expect(codeOf(() => start(task.id))).toBe('execution_running');
    domain.executions.setLiveStatus(first.id, 'PAUSED');
    expect(codeOf(() => start(task.id))).toBe('execution_running');
    domain.executions.finish(first.id, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
    expect(start(task.id).status).toBe('RUNNING');
  });

  test('a task with a live execution cannot be closed, reset or removed', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't', status: 'IN_PROGRESS' });
    start(task.id);
    expect(codeOf(() => domain.tasks.update(task.id, { status: 'DONE' }))).toBe('task_has_live_execution');
    expect(codeOf(() => domain.tasks.update(task.id, { status: 'TODO' }))).toBe('task_has_live_execution');
    expect(codeOf(() => domain.tasks.remove(task.id))).toBe('task_has_live_execution');
    expect(domain.tasks.update(task.id, { status: 'IN_REVIEW' }).status).toBe('IN_REVIEW');
  });

  test('only RUNNING and PAUSED swap, and an ended execution stays ended', () => {
    const app = project();
    const task = domain.tasks.create({ projectId: app.id, title: 't' });
    const run = start(task.id);
    const ended = domain.executions.finish(run.id, { status: 'FAILED', endReason: 'stopped', exitCode: 1 });
    expect(ended).toMatchObject({ status: 'FAILED', endReason: 'stopped', exitCode: 1 });
    expect(codeOf(() => domain.executions.setLiveStatus(run.id, 'PAUSED'))).toBe('invalid_execution_transition');
    expect(domain.executions.finish(run.id, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 }).status).toBe('FAILED');
  });

  test('names a missing execution', () => {
    expect(codeOf(() => domain.executions.get(5))).toBe('execution_not_found');
  });
});
