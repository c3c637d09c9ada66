import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, transaction, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';

let dir: string;
let db: Db;
let domain: Domain;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-tx-'));
  db = openDatabase(join(dir, 'svc.db'));
  domain = new Domain(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('transaction()', () => {
  test('nests: a store call inside an open transaction joins it (before: BEGIN inside BEGIN threw)', () => {
    const task = transaction(db, () => {
      const workspace = domain.workspaces.create({ name: 'outer' });
      const project = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: dir });
      // TaskStore.create opens its own transaction: nested, it is a savepoint of this one.
      return domain.tasks.create({ projectId: project.id, title: 'inner' });
    });
    expect(domain.tasks.get(task.id).title).toBe('inner');
  });

  test('an outer rollback undoes what nested calls did', () => {
    expect(() =>
      transaction(db, () => {
        domain.workspaces.create({ name: 'kept-only-if-committed' });
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(domain.workspaces.list()).toEqual([]);
  });

  test('a failing nested call rolls back to its savepoint and the outer transaction goes on', () => {
    transaction(db, () => {
      domain.workspaces.create({ name: 'first' });
      expect(() => domain.workspaces.create({ name: 'first' })).toThrow(expect.objectContaining({ code: 'workspace_exists' }));
      domain.workspaces.create({ name: 'second' });
    });
    expect(domain.workspaces.list().map((w) => w.name)).toEqual(['first', 'second']);
  });

  test('checks run under the write lock: another connection cannot slip a write between check and act', () => {
    const other = openDatabase(join(dir, 'svc.db'), { busyTimeoutMs: 50 });
    try {
      const otherDomain = new Domain(other);
      transaction(db, () => {
        domain.workspaces.create({ name: 'raced' });
        // The other process's create (check + insert) must wait for this transaction, not interleave.
        expect(() => otherDomain.workspaces.create({ name: 'raced' })).toThrow(/busy|locked/i);
      });
      expect(() => otherDomain.workspaces.create({ name: 'raced' })).toThrow(expect.objectContaining({ code: 'workspace_exists' }));
    } finally {
      other.close();
    }
  });
});
