// 1003 rebuilds the outbox, asks and deliveries under a database that already ran 1002 with rows in
// it: every row survives, keyed by its message, and the invariants (one OPEN ask per task) hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { migrate, MIGRATIONS, openDatabase } from '@svc-org/host/platform/db';
import { MESSAGING_MIGRATIONS } from '../../src/messaging/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-harness-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('1003 keeps every outbox row, ask and delivery of a 1002 database, keyed by message id', () => {
  const db = openDatabase(join(dir, 'svc.db'), { migrations: MIGRATIONS });
  migrate(db, MESSAGING_MIGRATIONS.filter((m) => m.version < 1003));
  const at = new Date().toISOString();
  db.prepare("INSERT INTO workspaces (name, created_at, updated_at) VALUES ('w', ?, ?)").run(at, at);
  db.prepare("INSERT INTO projects (workspace_id, name, repo_path, created_at, updated_at) VALUES (1, 'p', '/tmp', ?, ?)").run(at, at);
  db.prepare("INSERT INTO tasks (project_id, title, created_at, updated_at) VALUES (1, 't', ?, ?)").run(at, at);
  db.prepare("INSERT INTO harness_gateways (name, kind, url, token, created_at, updated_at) VALUES ('g', 'openclaw', 'ws://127.0.0.1:1', 'tok', ?, ?)").run(at, at);
  db.prepare("INSERT INTO harness_channels (name, gateway_id, platform, home_to, created_at, updated_at) VALUES ('c', 1, 'telegram', '42', ?, ?)").run(at, at);
  for (const id of [1, 2]) {
    db.prepare("INSERT INTO harness_messages (id, kind, task_id, body, status, expect_reply, channel_id, target_to, created_at, updated_at) VALUES (?, 'PUSH', 1, 'hi', 'SENT', 1, 1, '42', ?, ?)").run(id, at, at);
    db.prepare("INSERT INTO harness_outbound (id, message_id, gateway_id, state, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, 1, 'SENT', 1, 0, ?, ?)").run(`key-${id}`, id, at, at);
    db.prepare('INSERT INTO harness_asks (message_id, task_id, status, created_at) VALUES (?, 1, ?, ?)').run(id, id === 1 ? 'ANSWERED' : 'OPEN', at);
    db.prepare("INSERT INTO harness_deliveries (outbound_id, message_id, task_id, gateway_id, platform, chat_id, platform_message_id, created_at) VALUES (?, ?, 1, 1, 'telegram', '42', ?, ?)").run(`key-${id}`, id, String(80 + id), at);
  }

  expect(migrate(db, MESSAGING_MIGRATIONS.filter((m) => m.version <= 1003))).toEqual([1003]);
  expect(db.prepare('SELECT message_id, id, state FROM harness_outbound ORDER BY message_id').all()).toEqual([
    { message_id: 1, id: 'key-1', state: 'SENT' },
    { message_id: 2, id: 'key-2', state: 'SENT' },
  ]);
  expect(db.prepare('SELECT message_id, status FROM harness_asks ORDER BY message_id').all()).toEqual([
    { message_id: 1, status: 'ANSWERED' },
    { message_id: 2, status: 'OPEN' },
  ]);
  expect(db.prepare('SELECT message_id, outbound_id, platform_message_id FROM harness_deliveries ORDER BY message_id').all()).toEqual([
    { message_id: 1, outbound_id: 'key-1', platform_message_id: '81' },
    { message_id: 2, outbound_id: 'key-2', platform_message_id: '82' },
  ]);
  // The invariant and the cascade survive the rebuild.
  expect(() => db.prepare("UPDATE harness_asks SET status = 'OPEN' WHERE message_id = 1").run()).toThrow(/UNIQUE/);
  db.prepare('DELETE FROM harness_messages WHERE id = 1').run();
  expect((db.prepare('SELECT COUNT(*) AS n FROM harness_outbound').get() as { n: number }).n).toBe(1);
  expect(db.prepare('SELECT name FROM sqlite_master WHERE name = ?').get('harness_messages_by_status')).toBeUndefined();
  db.close();
});
