// get_task reads the task, its project's name and its open approval count in one statement (each
// statement is most of a call's cost in `svc mcp`), and answers exactly what list_tasks answers for
// the same task.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { OperationInvoker, OperationRegistry } from '../../src/operation-framework/index.js';

let home: string;
let services: HostServices;
let projectId: number;
let labelled: number;
let waiting: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-get-task-reads-'));
  services = await openHostServices({ env: { SVC_HOME: home }, extensions: false });
  const workspace = services.domain.workspaces.create({ name: 'w' });
  mkdirSync(join(home, 'repo'));
  projectId = services.domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: join(home, 'repo') }).id;
  services.domain.labels.create({ projectId, name: 'ui' });
  services.domain.labels.create({ projectId, name: 'api' });
  labelled = services.domain.tasks.create({ projectId, title: 'labelled', labels: ['ui', 'api'] }).id;
  waiting = services.domain.tasks.create({ projectId, title: 'waiting', status: 'IN_PROGRESS' }).id;
  // What the harness's triggers keep for a task with permission requests nobody answered yet.
  services.db.prepare('INSERT INTO task_open_approvals (task_id, open_count) VALUES (?, ?)').run(waiting, 2);
});
afterAll(async () => {
  await services.close();
  rmSync(home, { recursive: true, force: true });
});

const invoker = () =>
  new OperationInvoker({ registry: new OperationRegistry(new Set(ALL_OPERATIONS.list())), services: async () => services, caller: { via: 'mcp' } });

/** The SQL of each statement `run` executes on the host's connection. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const db = services.db;
  const prepare = db.prepare;
  const seen: string[] = [];
  db.prepare = ((sql: string) => {
    const statement = prepare.call(db, sql);
    const record =
      <A extends unknown[], R>(method: (...args: A) => R) =>
      (...args: A): R => {
        seen.push(sql);
        return method.apply(statement, args);
      };
    return Object.assign(Object.create(statement), { get: record(statement.get), all: record(statement.all), run: record(statement.run) });
  }) as typeof db.prepare;
  try {
    await run();
  } finally {
    db.prepare = prepare;
  }
  return seen;
}

describe('get_task', () => {
  test('reads a task without a worktree in three statements: the task with its project and approvals, its latest execution, its worktree (five before)', async () => {
    const statements = await statementsOf(() => invoker().invoke('get_task', { id: waiting }));
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/FROM tasks t JOIN projects p/);
  });

  test('answers what list_tasks answers for the same task: project name, labels, open approvals, attention', async () => {
    const { items } = await invoker().invoke('list_tasks', { projectId });
    for (const id of [labelled, waiting]) {
      expect(await invoker().invoke('get_task', { id })).toEqual(items.find((item: { id: number }) => item.id === id));
    }
    expect(await invoker().invoke('get_task', { id: labelled })).toMatchObject({ projectName: 'app', labels: ['api', 'ui'], openApprovals: 0 });
    expect(await invoker().invoke('get_task', { id: waiting })).toMatchObject({ projectName: 'app', labels: [], openApprovals: 2, attention: 'needs_you' });
  });

  test('a task that is not there fails as before', async () => {
    await expect(invoker().invoke('get_task', { id: 9999 })).rejects.toMatchObject({ code: 'task_not_found', message: 'no task with id 9999' });
  });
});
