// A list of task answers reads its facts together: the same views as task by task, in a number of
// statements that does not grow with the list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Domain, type TaskRecord } from '@svc-org/host/features/domain';
import { WorktreeStore } from '@svc-org/host/features/worktrees';
import { MIGRATIONS, openDatabase, type Db } from '@svc-org/host/platform/db';
import { attentionFactsOf, attentionOf, openApprovalCounts, taskViews } from '@svc-org/host/features/lifecycle';
import { ApprovalStore } from '../../src/approvals/approval-store.js';
import { harnessPlugin } from '../../src/plugin/harness-plugin.js';

let dir: string;
let db: Db;
let domain: Domain;
let worktrees: WorktreeStore;
let projectId: number;
let approvals: ApprovalStore;
/** The host's count of each task's open approvals, which the harness keeps. */
const openApprovals = (ids: readonly number[]) => openApprovalCounts(db, ids);
const request = (taskId: number, callHash: string) => approvals.open({ taskId, executionId: null, cli: 'claude', toolName: 'Bash', callHash, cwd: null, shown: 'ls' }).approval;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-task-views-'));
  // Opened as a host with the harness plugin opens it: the harness's tables are there from the start.
  db = openDatabase(join(dir, 'svc.db'), { migrations: [...MIGRATIONS, ...harnessPlugin.migrations] });
  approvals = new ApprovalStore(db);
  domain = new Domain(db, { signals: { setUnattended: () => undefined } });
  worktrees = new WorktreeStore(db);
  const workspace = domain.workspaces.create({ name: 'w' });
  projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: dir }).id;
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Tasks in every state the facts tell apart: running, failed, ended with changes, merged, conflicting (with another task or its base), asking for approval. */
function tasksOfEveryKind(count: number): TaskRecord[] {
  const made: number[] = [];
  for (let i = 0; i < count; i++) {
    const task = domain.tasks.create({ projectId, title: `task ${i}` });
    made.push(task.id);
    const kind = i % 6;
    if (kind === 0) continue;
    const run = () => domain.executions.create({ taskId: task.id, connectionId: null, connectionName: 'c', providerId: 'p', mode: 'fresh', sessionId: null });
    if (kind === 1) run();
    if (kind === 2) domain.executions.finish(run().id, { status: 'FAILED', endReason: 'exited' });
    if (kind >= 3) {
      // An older run first: the latest one is the one that counts.
      domain.executions.finish(run().id, { status: 'FAILED', endReason: 'exited' });
      domain.executions.finish(run().id, { status: 'COMPLETED', endReason: 'exited', leftChanges: true });
      worktrees.begin({ taskId: task.id, projectId, branch: `svc/${task.id}`, baseBranch: 'main', worktreePath: join(dir, String(task.id)) });
      worktrees.activate(task.id, 'abc1234');
    }
    if (kind === 4) worktrees.markMerged(task.id, 'def5678');
    if (kind === 5) {
      worktrees.setBaseConflicts(task.id, ['app.js'], 'def5678');
      approvals.open({ taskId: task.id, executionId: null, cli: 'claude', toolName: 'Bash', callHash: `h${task.id}`, cwd: null, shown: 'ls' });
      approvals.open({ taskId: task.id, executionId: null, cli: 'claude', toolName: 'Bash', callHash: `i${task.id}`, cwd: null, shown: 'pwd' });
    }
  }
  // Two ended tasks whose branches conflict with each other.
  if (count > 9) worktrees.recordOverlap(made[3]!, made[9]!, ['lib.js'], ['lib.js'], 'sig');
  return made.map((id) => domain.tasks.get(id));
}

/** The statements run while `read` runs (each read here prepares its statement and runs it once). */
function statementsOf(read: () => unknown): number {
  const prepare = db.prepare;
  let count = 0;
  db.prepare = ((sql: string) => (count++, prepare(sql))) as Db['prepare'];
  try {
    read();
  } finally {
    db.prepare = prepare;
  }
  return count;
}

describe('taskViews of a list', () => {
  test('each view is what the task alone shows: its project, attention, merged commit, open approvals and base conflicts', () => {
    const tasks = tasksOfEveryKind(18);
    const views = taskViews(domain, worktrees, tasks, openApprovals);
    expect(views.map((view) => view.id)).toEqual(tasks.map((task) => task.id));
    for (const [i, task] of tasks.entries()) {
      const facts = attentionFactsOf(domain, worktrees, task, (id) => openApprovals([id]).get(id) ?? 0);
      expect(views[i]).toEqual({
        ...task,
        projectName: 'app',
        attention: attentionOf(facts),
        mergedCommit: facts.mergedCommit,
        openApprovals: facts.openApprovals,
        conflictsWithBase: facts.conflictsWithBase,
      });
    }
    expect(new Set(views.map((view) => view.attention))).toEqual(new Set(['idle', 'working', 'needs_you', 'ready_for_review', 'conflicts']));
    expect(views.filter((view) => view.openApprovals === 2)).toHaveLength(3);
    expect(views.filter((view) => view.mergedCommit === 'def5678')).toHaveLength(3);
    expect(views.filter((view) => view.conflictsWithBase !== null)).toHaveLength(3);
  });

  test('reads as many statements for 24 tasks as for 12', () => {
    const tasks = tasksOfEveryKind(24);
    const read = (list: TaskRecord[]) => statementsOf(() => taskViews(domain, worktrees, list, openApprovals));
    read(tasks.slice(0, 12));
    expect(read(tasks)).toBe(read(tasks.slice(0, 12)));
  });

  test("the harness keeps the host's count: a request counts while it waits, an answer counts it off, a removed task takes its count along", () => {
    const [task] = tasksOfEveryKind(1);
    const count = () => openApprovals([task!.id]).get(task!.id) ?? 0;
    expect(count()).toBe(0);
    const first = request(task!.id, 'h');
    request(task!.id, 'i');
    // The same call asked again waits on the same request: still two.
    request(task!.id, 'i');
    expect(count()).toBe(2);
    approvals.answer(first.id, { answer: 'deny', reason: null, by: 'tester', via: 'cli' });
    expect(count()).toBe(1);
    domain.tasks.remove(task!.id);
    expect((db.prepare('SELECT COUNT(*) AS n FROM task_open_approvals').get() as { n: number }).n).toBe(0);
  });

  test('requests already open when the harness starts keeping the count are counted; a database the harness never opened counts none', () => {
    const file = join(dir, 'older.db');
    const older = openDatabase(file, { migrations: [...MIGRATIONS, ...harnessPlugin.migrations.filter((migration) => migration.name !== '1015_harness_approval_counts')] });
    const olderDomain = new Domain(older, { signals: { setUnattended: () => undefined } });
    const project = olderDomain.projects.create({ workspaceId: olderDomain.workspaces.create({ name: 'w' }).id, name: 'app', repoPath: dir });
    const task = olderDomain.tasks.create({ projectId: project.id, title: 'asks' });
    const olderApprovals = new ApprovalStore(older);
    olderApprovals.open({ taskId: task.id, executionId: null, cli: 'claude', toolName: 'Bash', callHash: 'h', cwd: null, shown: 'ls' });
    expect(openApprovalCounts(older, [task.id]).get(task.id)).toBeUndefined();
    older.close();
    const upgraded = openDatabase(file, { migrations: [...MIGRATIONS, ...harnessPlugin.migrations] });
    try {
      expect(openApprovalCounts(upgraded, [task.id]).get(task.id)).toBe(1);
    } finally {
      upgraded.close();
    }
  });
});
