// get_task reads the task, its project's name, its open approval count, its latest execution, its
// worktree and its overlaps in one statement (each statement is most of a call's cost in `svc mcp`),
// and answers exactly what list_tasks answers for the same task.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { OperationInvoker, OperationRegistry } from '../../src/operation-framework/index.js';
import { WorktreeStore } from '../../src/features/worktrees/index.js';
import { openApprovalCounts, taskViews } from '../../src/features/lifecycle/index.js';

let home: string;
let services: HostServices;
let projectId: number;
let labelled: number;
let waiting: number;
/** Ran twice (the latest waits at its prompt), an active worktree merged once, conflicting with its base and with `other`. */
let worked: number;
let other: number;
/** Its worktree was removed; it overlapped `worked` before it closed. */
let closed: number;

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

  worked = services.domain.tasks.create({ projectId, title: 'worked', status: 'IN_PROGRESS', labels: ['ui'] }).id;
  other = services.domain.tasks.create({ projectId, title: 'other', status: 'IN_PROGRESS' }).id;
  closed = services.domain.tasks.create({ projectId, title: 'closed', status: 'DONE' }).id;
  const run = { connectionId: null, connectionName: 'c', providerId: 'demo', mode: 'fresh' as const, sessionId: null, unsupportedAttachments: [{ kind: 'stopHook' as const, reason: 'settings only' }] };
  const first = services.domain.executions.create({ taskId: worked, ...run });
  services.domain.executions.finish(first.id, { status: 'COMPLETED', endReason: 'exited', leftChanges: true, exitCode: 0 });
  services.domain.executions.markWaiting(services.domain.executions.create({ taskId: worked, ...run, mode: 'resume', sessionId: 's-1' }).id);
  const worktrees = new WorktreeStore(services.db);
  for (const id of [worked, other, closed]) {
    worktrees.begin({ taskId: id, projectId, branch: `svc/task-${id}`, baseBranch: 'main', worktreePath: join(home, `wt-${id}`) });
    worktrees.activate(id, 'abc123');
  }
  worktrees.markMerged(worked, 'def456');
  worktrees.setBaseConflicts(worked, ['z.ts', 'a.ts'], 'tip');
  worktrees.markRemoved(closed);
  worktrees.recordOverlap(worked, other, ['b.ts', 'c.ts'], ['c.ts'], 'sig-1');
  worktrees.recordOverlap(closed, worked, ['d.ts'], ['d.ts'], 'sig-2');
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
  test('reads a task in one statement: the task with its project, approvals, latest execution, worktree and overlaps (five before)', async () => {
    for (const id of [waiting, labelled]) {
      const statements = await statementsOf(() => invoker().invoke('get_task', { id }));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/FROM tasks t JOIN projects p/);
    }
  });

  test('a task whose active worktree overlaps others reads only those others beside its own statement', async () => {
    const statements = await statementsOf(() => invoker().invoke('get_task', { id: worked }));
    expect(statements[0]).toMatch(/FROM tasks t JOIN projects p/);
    // Each other task its overlaps name: whether it is open, and whether its worktree is active.
    expect(statements.slice(1).every((sql) => /FROM (tasks|task_worktrees) /.test(sql))).toBe(true);
    expect(statements.slice(1).some((sql) => /FROM (executions|task_overlaps) /.test(sql))).toBe(false);
  });

  test('answers what list_tasks answers for the same task: project name, labels, open approvals, attention', async () => {
    const { items } = await invoker().invoke('list_tasks', { projectId });
    for (const id of [labelled, waiting, worked, other, closed]) {
      // The same bytes: the same fields in the same order.
      expect(JSON.stringify(await invoker().invoke('get_task', { id }))).toBe(JSON.stringify(items.find((item: { id: number }) => item.id === id)));
    }
    expect(await invoker().invoke('get_task', { id: labelled })).toMatchObject({ projectName: 'app', labels: ['api', 'ui'], openApprovals: 0 });
    expect(await invoker().invoke('get_task', { id: waiting })).toMatchObject({ projectName: 'app', labels: [], openApprovals: 2, attention: 'needs_you' });
    // The removed pair no longer counts; the other open task's and the base's conflicts do.
    expect(await invoker().invoke('get_task', { id: worked })).toMatchObject({
      labels: ['ui'],
      // Its CLI waits at its prompt: that comes before its conflicts.
      attention: 'needs_you',
      mergedCommit: 'def456',
      conflictsWithBase: { baseBranch: 'main', files: ['a.ts', 'z.ts'] },
    });
    expect(await invoker().invoke('get_task', { id: other })).toMatchObject({ attention: 'conflicts', mergedCommit: null, conflictsWithBase: null });
    expect(await invoker().invoke('get_task', { id: closed })).toMatchObject({ attention: 'done', mergedCommit: null });
  });

  test('a task that is not there fails as before', async () => {
    await expect(invoker().invoke('get_task', { id: 9999 })).rejects.toMatchObject({ code: 'task_not_found', message: 'no task with id 9999' });
  });
});

describe('a task\'s view', () => {
  test('every view has one object shape, however often views are built (once optimised, a spread followed by more fields gave each view its own on Node 20, slow to build and to read)', () => {
    setFlagsFromString('--allow-natives-syntax');
    const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    // The project's tasks fifty times over: a list's reads are made once for all its views.
    const tasks = Array.from({ length: 50 }, () => services.domain.tasks.list({ projectId })).flat();
    const views = () => taskViews(services.domain, new WorktreeStore(services.db), tasks, (ids) => openApprovalCounts(services.db, ids));
    const first = views()[0]!;
    // Enough views for the optimising compiler to take the view's function over.
    for (let i = 0; i < 100; i++) views();
    const last = views();
    expect(last.length).toBeGreaterThan(1);
    for (const view of last) expect(sameShape(view, first)).toBe(true);
  });
});

describe('the invoker that runs it', () => {
  test('opens its services once: a later call does not ask for them again', async () => {
    let opened = 0;
    const invoker = new OperationInvoker({ registry: new OperationRegistry(new Set(ALL_OPERATIONS.list())), services: async () => (opened++, services), caller: { via: 'mcp' } });
    for (let i = 0; i < 3; i++) expect((await invoker.invoke('get_task', { id: labelled })).id).toBe(labelled);
    expect(opened).toBe(1);
  });
});
