import { statSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { staleOutputs } from './fresh-build.js';

const ROOT = resolve(import.meta.dirname, '../..');

test('a source newer than its bundle marks the bundle stale', () => {
  // The global setup has just built whatever was stale.
  expect(staleOutputs()).toEqual([]);
  const source = join(ROOT, 'test/fixtures/providers/echo/src/index.ts');
  const before = statSync(source);
  const future = new Date(Date.now() + 60_000);
  utimesSync(source, future, future);
  try {
    expect(staleOutputs()).toContain('test/fixtures/providers/echo/dist/svc-cli-provider.js');
  } finally {
    utimesSync(source, before.atime, before.mtime);
  }
});
