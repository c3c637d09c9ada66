import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cachePreparedStatements, type Db } from '../../src/platform/db/index.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-stmt-'));
  db = new Database(join(dir, 'x.db'));
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the same SQL is compiled once and a reused statement sees every later write', () => {
  cachePreparedStatements(db, 2);
  const read = db.prepare('SELECT v FROM t WHERE id = ?');
  expect(db.prepare('SELECT v FROM t WHERE id = ?')).toBe(read);
  expect(read.get(1)).toBeUndefined();
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(1, 'one');
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(2, 'two');
  expect(db.prepare('SELECT v FROM t WHERE id = ?').get(1)).toMatchObject({ v: 'one' });
  expect(db.prepare('SELECT v FROM t WHERE id = ?').get(2)).toMatchObject({ v: 'two' });
});

test('the cache keeps the most recently used statements up to its limit', () => {
  cachePreparedStatements(db, 2);
  const a = db.prepare('SELECT 1');
  const b = db.prepare('SELECT 2');
  expect(db.prepare('SELECT 1')).toBe(a); // a is now the most recent
  db.prepare('SELECT 3'); // drops b
  expect(db.prepare('SELECT 1')).toBe(a);
  expect(db.prepare('SELECT 2')).not.toBe(b);
});

test('a reading statement answers plain rows: a property per column and nothing else', () => {
  cachePreparedStatements(db);
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(1, 'one');
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(2, null);
  expect(db.prepare('SELECT * FROM t WHERE id = ?').get(1)).toEqual({ id: 1, v: 'one' });
  expect(db.prepare('SELECT * FROM t WHERE id = ?').get(3)).toBeUndefined();
  expect(db.prepare('SELECT * FROM t ORDER BY id').all()).toEqual([{ id: 1, v: 'one' }, { id: 2, v: null }]);
  expect(db.prepare('SELECT * FROM t WHERE id > ?').all(5)).toEqual([]);
  // Named parameters, a blob, and two columns of one name (the last wins, as libsql's own rows have it).
  expect(db.prepare("SELECT x'0102' AS b, 1 AS a, 2 AS a, v FROM t WHERE id = :id").get({ id: 1 })).toEqual({ b: Buffer.from([1, 2]), a: 2, v: 'one' });
  expect(db.prepare('INSERT INTO t (id, v) VALUES (?, ?) RETURNING id, v').get(4, 'four')).toEqual({ id: 4, v: 'four' });
  expect(db.prepare('UPDATE t SET v = ? WHERE id = ?').run('uno', 1).changes).toBe(1);
});

test('a cached SELECT * answers the columns a later schema change added', () => {
  cachePreparedStatements(db);
  db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(1, 'one');
  expect(db.prepare('SELECT * FROM t WHERE id = ?').get(1)).toEqual({ id: 1, v: 'one' });
  db.exec("ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'w'");
  expect(db.prepare('SELECT * FROM t WHERE id = ?').get(1)).toEqual({ id: 1, v: 'one', w: 'w' });
  expect(db.prepare('SELECT * FROM t').all()).toEqual([{ id: 1, v: 'one', w: 'w' }]);
});
