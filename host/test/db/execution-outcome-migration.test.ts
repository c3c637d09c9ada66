// Migration 0018 on a database an older svc wrote: executions a person stopped or a shutdown or
// restart ended (recorded FAILED then) become COMPLETED with their outcome; real failures stay FAILED.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { MIGRATIONS, migrate, openDatabase } from '../../src/platform/db/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-outcome-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('existing executions get their outcome, and only real failures stay FAILED', () => {
  const file = join(dir, 'svc.db');
  const before = openDatabase(file, { migrations: MIGRATIONS.filter((m) => m.version < 18) });
  const at = '2026-01-01T00:00:00.000Z';
  before.prepare("INSERT INTO workspaces (name, created_at, updated_at) VALUES ('w', ?, ?)").run(at, at);
  before.prepare("INSERT INTO projects (workspace_id, name, repo_path, created_at, updated_at) VALUES (1, 'p', '/tmp', ?, ?)").run(at, at);
  const rows: [string, string | null, number][] = [
    ['COMPLETED', 'exited', 0],
    ['FAILED', 'exited', 3],
    ['FAILED', 'spawn_failed', 0],
    ['FAILED', 'stopped', 0],
    ['FAILED', 'keepalive', 0],
    ['FAILED', 'service_shutdown', 0],
    ['FAILED', 'service_restart', 0],
    ['RUNNING', null, 0],
  ];
  for (const [index, [status, reason, code]] of rows.entries()) {
    before.prepare("INSERT INTO tasks (project_id, title, created_at, updated_at) VALUES (1, ?, ?, ?)").run(`t${index}`, at, at);
    before
      .prepare("INSERT INTO executions (task_id, connection_name, provider_id, mode, status, end_reason, exit_code, started_at) VALUES (?, 'c', 'x', 'fresh', ?, ?, ?, ?)")
      .run(index + 1, status, reason, code, at);
  }
  before.close();
  const after = openDatabase(file);
  expect(after.prepare('SELECT status, outcome FROM executions ORDER BY id').all()).toEqual([
    { status: 'COMPLETED', outcome: 'completed' },
    { status: 'FAILED', outcome: 'failed' },
    { status: 'FAILED', outcome: 'failed' },
    { status: 'COMPLETED', outcome: 'stopped' },
    { status: 'COMPLETED', outcome: 'stopped' },
    { status: 'COMPLETED', outcome: 'interrupted' },
    { status: 'COMPLETED', outcome: 'interrupted' },
    { status: 'RUNNING', outcome: null },
  ]);
  expect(migrate(after, MIGRATIONS)).toEqual([]);
  after.close();
});
