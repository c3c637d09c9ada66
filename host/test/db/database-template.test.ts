// A new database may start as a copy of one already migrated (the build's template): the copy is
// made only where no database is, owner-only, and whole or not at all; its recorded migrations are
// not run again, and any others (a plugin's) are.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyDatabaseTemplate, MIGRATIONS, openDatabase, type Db } from '../../src/platform/db/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-db-template-'));
const template = join(dir, 'template.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  // A template as the build makes it, marked so that a copy of it can be told from a database migrated here.
  const db = openDatabase(template);
  db.exec('CREATE TABLE template_marker (id INTEGER PRIMARY KEY)');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  // The build keeps the one file, its log emptied into it.
  for (const suffix of ['-wal', '-shm']) rmSync(`${template}${suffix}`, { force: true });
});

const tables = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
const versions = (db: Db) => (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((row) => row.version);

test('a new file starts as the template, owner-only, with no migration run again', () => {
  const file = join(dir, 'new.db');
  const db = openDatabase(file, { template });
  try {
    expect(tables(db)).toContain('template_marker');
    expect(versions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(db.prepare('PRAGMA journal_mode').get()).toMatchObject({ journal_mode: 'wal' });
  } finally {
    db.close();
  }
});

test('migrations the template does not hold are applied after the copy', () => {
  const file = join(dir, 'plugin.db');
  const plugin = { version: 9_001, name: '9001_plugin', sql: 'CREATE TABLE plugin_rows (id INTEGER PRIMARY KEY);' };
  const db = openDatabase(file, { template, migrations: [...MIGRATIONS, plugin] });
  try {
    expect(tables(db)).toEqual(expect.arrayContaining(['template_marker', 'plugin_rows']));
    expect(versions(db)).toEqual([...MIGRATIONS.map((m) => m.version), 9_001]);
  } finally {
    db.close();
  }
});

test('an existing database is opened as it is', () => {
  const file = join(dir, 'existing.db');
  openDatabase(file).close();
  const db = openDatabase(file, { template });
  try {
    expect(tables(db)).not.toContain('template_marker');
  } finally {
    db.close();
  }
});

test('a write-ahead log left without its database: no copy (the log would be replayed into it), migrated from nothing', () => {
  const file = join(dir, 'orphan-log.db');
  writeFileSync(`${file}-wal`, '');
  const db = openDatabase(file, { template });
  try {
    expect(tables(db)).not.toContain('template_marker');
    expect(versions(db)).toEqual(MIGRATIONS.map((m) => m.version));
  } finally {
    db.close();
  }
});

test('no template where it was said to be: migrated from nothing', () => {
  const file = join(dir, 'no-template.db');
  const db = openDatabase(file, { template: join(dir, 'missing.db') });
  try {
    expect(versions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(tables(db)).not.toContain('template_marker');
  } finally {
    db.close();
  }
  expect(existsSync(`${file}.${process.pid}.template`)).toBe(false);
});

test('a copy never replaces a database that appeared meanwhile, and leaves no partial file', () => {
  const file = join(dir, 'raced.db');
  writeFileSync(file, 'another process was first');
  expect(copyDatabaseTemplate(template, file)).toBe(false);
  expect(statSync(file).size).toBe('another process was first'.length);
  expect(existsSync(`${file}.${process.pid}.template`)).toBe(false);
});

// A command that only reads (svc task list) on a new home is answered by the template itself: the
// same rows an empty home's copy would give, and nothing made in the home or beside the template.
test('a reader of a new file reads the template itself, read-only, and makes no file here or beside the template', () => {
  const file = join(dir, 'reader.db');
  const before = statSync(template);
  const db = openDatabase(file, { template, readOnly: true });
  try {
    expect(tables(db)).toContain('template_marker');
    expect(versions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare('SELECT count(*) AS n FROM tasks').get()).toEqual({ n: 0 });
    expect(() => db.exec('INSERT INTO template_marker (id) VALUES (1)')).toThrow(/readonly/i);
  } finally {
    db.close();
  }
  for (const made of [file, `${file}-wal`, `${file}-shm`, `${template}-wal`, `${template}-shm`]) expect(existsSync(made), made).toBe(false);
  expect(statSync(template).mtimeMs).toBe(before.mtimeMs);
  expect(statSync(template).size).toBe(before.size);
});

test('a reader of an existing file, or of a new one the template lacks migrations for, opens the file as a writer would', () => {
  const existing = join(dir, 'reader-existing.db');
  openDatabase(existing).close();
  const plugin = { version: 9_002, name: '9002_plugin', sql: 'CREATE TABLE plugin_rows (id INTEGER PRIMARY KEY);' };
  const pending = join(dir, 'reader-plugin.db');
  const missing = join(dir, 'reader-no-template.db');
  const opened = [
    openDatabase(existing, { template, readOnly: true }),
    openDatabase(pending, { template, readOnly: true, migrations: [...MIGRATIONS, plugin] }),
    openDatabase(missing, { template: join(dir, 'missing.db'), readOnly: true }),
  ];
  try {
    const [fromExisting, fromPending, fromMissing] = opened as [Db, Db, Db];
    expect(tables(fromExisting)).not.toContain('template_marker');
    expect(tables(fromPending)).toEqual(expect.arrayContaining(['template_marker', 'plugin_rows']));
    expect(versions(fromPending)).toEqual([...MIGRATIONS.map((m) => m.version), 9_002]);
    expect(versions(fromMissing)).toEqual(MIGRATIONS.map((m) => m.version));
    for (const db of opened) expect(db.prepare('PRAGMA journal_mode').get()).toMatchObject({ journal_mode: 'wal' });
  } finally {
    for (const db of opened) db.close();
  }
  for (const file of [pending, missing]) expect(statSync(file).mode & 0o777).toBe(0o600);
});

test('a template at a path a URI would misread is still read where it is', () => {
  const odd = join(dir, 'odd ?#% dir');
  mkdirSync(odd);
  const oddTemplate = join(odd, 'template?x=1#y.db');
  copyFileSync(template, oddTemplate);
  const file = join(dir, 'reader-odd.db');
  const db = openDatabase(file, { template: oddTemplate, readOnly: true });
  try {
    expect(tables(db)).toContain('template_marker');
  } finally {
    db.close();
  }
  expect(existsSync(file)).toBe(false);
});
