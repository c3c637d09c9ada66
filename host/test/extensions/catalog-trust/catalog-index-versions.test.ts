import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../../src/platform/db/index.js';
import { CatalogIndexVersions } from '../../../src/features/extensions/catalog-trust/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-index-versions-'));
const db = openDatabase(join(dir, 'svc.db'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('remembers the highest accepted version per catalog URL, ignoring the query, and never lowers it', () => {
  const versions = new CatalogIndexVersions(db, () => new Date('2030-01-01T00:00:00Z'));
  const url = new URL('https://downloads.test/svc/index.v1.json?sig=secret');
  expect(versions.highest(url)).toBeUndefined();
  versions.accept(url, 7, 'aa');
  versions.accept(new URL('https://downloads.test/svc/index.v1.json'), 5, 'bb');
  expect(versions.highest(new URL('https://downloads.test/svc/index.v1.json'))).toEqual({ version: 7, keyId: 'aa', acceptedAt: '2030-01-01T00:00:00.000Z' });
  expect(versions.highest(new URL('https://mirror.test/svc/index.v1.json'))).toBeUndefined();
  versions.accept(url, 9, 'bb');
  expect(versions.highest(url)?.version).toBe(9);
  expect(db.prepare('SELECT index_url FROM catalog_index_versions').all()).toEqual([{ index_url: 'https://downloads.test/svc/index.v1.json' }]);
});
