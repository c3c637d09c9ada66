// Pending migrations apply together: a new database commits once, and a migration that fails
// leaves none of the pending ones applied (a command that fails changes nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { MIGRATIONS, migrate, openDatabase } from '../../src/platform/db/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a migration that fails leaves none of the pending migrations applied; the next start applies them all', () => {
  const file = join(dir, 'svc.db');
  const first = openDatabase(file, { migrations: MIGRATIONS.filter((m) => m.version < 5) });
  const applied = () => (first.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((row) => row.version);
  const before = applied();
  const broken = { version: 9_999, name: '9999_broken', sql: 'CREATE TABLE broken (id INTEGER PRIMARY KEY); SELECT * FROM no_such_table;' };
  expect(() => migrate(first, [...MIGRATIONS, broken])).toThrow(/no_such_table/);
  expect(applied()).toEqual(before);
  expect(first.prepare("SELECT name FROM sqlite_master WHERE name IN ('broken', 'project_facts')").all()).toEqual([]);
  expect(migrate(first, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.version).filter((version) => version >= 5));
  expect(applied()).toEqual(MIGRATIONS.map((m) => m.version));
  expect(migrate(first, MIGRATIONS)).toEqual([]);
  first.close();
});
