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
