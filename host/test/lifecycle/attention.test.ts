// The one derived attention of a task, fed each state, and how each end of an execution is recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Domain } from '../../src/features/domain/index.js';
import { WorktreeStore } from '../../src/features/worktrees/index.js';
import { openDatabase } from '../../src/platform/db/index.js';
import { taskViews, attentionInWords, attentionOf, endOfExit, endOfRestart, endOfSpawnFailure, executionWords, type AttentionFacts } from '../../src/features/lifecycle/index.js';

const running = { status: 'RUNNING' as const, outcome: null, waitingSince: null, leftChanges: null };
const ended = (outcome: 'completed' | 'failed' | 'stopped' | 'interrupted', leftChanges: boolean | null) => ({
  status: outcome === 'failed' ? ('FAILED' as const) : ('COMPLETED' as const),
  outcome,
  waitingSince: null,
  leftChanges,
});
const facts = (patch: Partial<AttentionFacts>): AttentionFacts => ({ taskStatus: 'IN_PROGRESS', conflicts: [], ...patch });
const worktree = { mergedCommit: null };

describe('attentionOf', () => {
  test.each<[string, AttentionFacts, string]>([
    ['a task never started', facts({ taskStatus: 'TODO' }), 'idle'],
    ['its CLI running a turn', facts({ execution: running, worktree }), 'working'],
    ['an open question (the execution parked)', facts({ execution: { ...running, status: 'PAUSED' }, worktree }), 'needs_you'],
    ['its CLI waiting at its own prompt', facts({ execution: { ...running, waitingSince: '2026-01-01T00:00:00.000Z' }, worktree }), 'needs_you'],
    ['a permission request of its CLI waits for an answer', facts({ execution: running, worktree, openApprovals: 1 }), 'needs_you'],
    ['a permission request outlived its terminal (the service was killed)', facts({ execution: ended('interrupted', true), worktree, openApprovals: 2 }), 'needs_you'],
    ['a real failure', facts({ execution: ended('failed', true), worktree }), 'needs_you'],
    ['a failure wins over a conflict', facts({ execution: ended('failed', true), worktree, conflicts: ['app.js'] }), 'needs_you'],
    ['its branch conflicts while it runs', facts({ execution: running, worktree, conflicts: ['app.js'] }), 'conflicts'],
    ['its branch conflicts, nothing running', facts({ execution: ended('stopped', true), worktree, conflicts: ['app.js'] }), 'conflicts'],
    ['ended with changes', facts({ execution: ended('completed', true), worktree }), 'ready_for_review'],
    ['stopped with changes', facts({ execution: ended('stopped', true), worktree }), 'ready_for_review'],
    ['interrupted with changes', facts({ execution: ended('interrupted', true), worktree }), 'ready_for_review'],
    ['ended without changes', facts({ execution: ended('completed', false), worktree }), 'idle'],
    ['stopped, no worktree of its own', facts({ execution: ended('stopped', null) }), 'idle'],
    ['completed, no worktree of its own', facts({ execution: ended('completed', null) }), 'ready_for_review'],
    ['merged and kept open', facts({ execution: ended('stopped', true), worktree: { mergedCommit: 'abc1234' } }), 'idle'],
    ['moved to review by hand', facts({ taskStatus: 'IN_REVIEW' }), 'ready_for_review'],
    ['DONE', facts({ taskStatus: 'DONE', execution: ended('failed', true), conflicts: ['app.js'] }), 'done'],
    ['CANCELLED', facts({ taskStatus: 'CANCELLED', execution: running }), 'done'],
  ])('%s → %s', (_name, input, expected) => {
    expect(attentionOf(input)).toBe(expected);
  });
});

describe('the end of an execution', () => {
  test("a person's Stop, the keepalive, a shutdown and a restart are not failures", () => {
    expect(endOfExit({ exitCode: 0, signal: 2, reason: 'stopped' })).toMatchObject({ status: 'COMPLETED', outcome: 'stopped' });
    expect(endOfExit({ exitCode: 0, signal: 9, reason: 'keepalive' })).toMatchObject({ status: 'COMPLETED', outcome: 'stopped' });
    expect(endOfExit({ exitCode: 0, signal: 15, reason: 'service_shutdown' })).toMatchObject({ status: 'COMPLETED', outcome: 'interrupted' });
    expect(endOfRestart()).toMatchObject({ status: 'COMPLETED', outcome: 'interrupted', endReason: 'service_restart' });
  });

  test('a CLI that exits by itself completes on a clean exit and fails otherwise', () => {
    expect(endOfExit({ exitCode: 0, signal: null, reason: 'exited' }, true)).toMatchObject({ status: 'COMPLETED', outcome: 'completed', leftChanges: true });
    expect(endOfExit({ exitCode: 3, signal: null, reason: 'exited' })).toMatchObject({ status: 'FAILED', outcome: 'failed' });
    expect(endOfExit({ exitCode: 0, signal: 9, reason: 'exited' })).toMatchObject({ status: 'FAILED', outcome: 'failed' });
    expect(endOfSpawnFailure({ code: 'spawn_failed', message: 'ENOENT' })).toMatchObject({ status: 'FAILED', outcome: 'failed' });
  });

  test('a conflict with the base branch names it in words; any other attention reads its plain words', () => {
    const withMain = { baseBranch: 'main', files: ['app.js', 'lib.js'] };
    expect(attentionInWords({ attention: 'conflicts', conflictsWithBase: withMain })).toBe('conflicts with main');
    expect(attentionInWords({ attention: 'conflicts', conflictsWithBase: withMain }, true)).toBe('conflicts with main in app.js, lib.js');
    expect(attentionInWords({ attention: 'conflicts', conflictsWithBase: null }, true)).toBe('conflicts');
    expect(attentionInWords({ attention: 'needs_you', conflictsWithBase: withMain })).toBe('needs you');
  });

  test('its words are neutral unless it failed', () => {
    const words = (status: 'RUNNING' | 'PAUSED' | 'COMPLETED' | 'FAILED', outcome: 'completed' | 'failed' | 'stopped' | 'interrupted' | null, exitCode: number | null = 0, exitSignal: number | null = null) =>
      executionWords({ status, outcome, exitCode, exitSignal });
    expect(words('COMPLETED', 'stopped', 0, 2)).toBe('Stopped');
    expect(words('COMPLETED', 'interrupted')).toBe('Interrupted — resumable');
    expect(words('COMPLETED', 'completed')).toBe('Completed');
    expect(words('FAILED', 'failed', 3)).toBe('Failed (exit 3)');
    expect(words('PAUSED', null)).toBe('Paused — waiting for an answer');
  });
});

describe('the facts read from the database', () => {
  test('a conflict counts only while both tasks are open with their worktrees', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-attention-'));
    const db = openDatabase(join(dir, 'svc.db'));
    try {
      const domain = new Domain(db, { signals: { setUnattended: () => undefined } });
      const worktrees = new WorktreeStore(db);
      const workspace = domain.workspaces.create({ name: 'w' });
      const project = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: dir });
      const [a, b] = ['one', 'two'].map((title) => domain.tasks.create({ projectId: project.id, title }));
      for (const task of [a!, b!]) {
        worktrees.begin({ taskId: task.id, projectId: project.id, branch: `svc/${task.id}`, baseBranch: 'main', worktreePath: join(dir, String(task.id)) });
        worktrees.activate(task.id, 'abc1234');
      }
      worktrees.recordOverlap(a!.id, b!.id, ['app.js'], ['app.js'], 'sig');
      const attention = () => taskViews(domain, worktrees, [domain.tasks.get(a!.id)], () => new Map())[0]!;
      expect(attention()).toMatchObject({ attention: 'conflicts', projectName: 'app', mergedCommit: null, conflictsWithBase: null });
      worktrees.setBaseConflicts(a!.id, ['lib.js', 'app.js'], 'def5678');
      expect(attention()).toMatchObject({ attention: 'conflicts', conflictsWithBase: { baseBranch: 'main', files: ['app.js', 'lib.js'] } });
      worktrees.setBaseConflicts(a!.id, [], 'def5678');
      worktrees.markRemoved(b!.id);
      expect(attention()).toMatchObject({ attention: 'idle', conflictsWithBase: null });
      worktrees.activate(b!.id, 'abc1234');
      domain.tasks.moveTo(b!.id, 'CANCELLED');
      expect(attention().attention).toBe('idle');
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
