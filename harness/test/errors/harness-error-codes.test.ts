// Every error the harness throws has a row in the host's error registry (status, exposure, MCP
// isError); an unregistered code would reach a person as `internal`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { errorCodes } from '@svc-org/host/platform/errors';

const SRC = resolve(import.meta.dirname, '../../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

test('every code the harness throws is registered', () => {
  const thrown = new Set<string>();
  for (const file of files(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/new SvcError\(\{\s*code: '([a-z][a-z0-9_]*)'/g)) thrown.add(match[1]!);
  }
  expect(thrown.size).toBeGreaterThan(8);
  expect([...thrown].filter((code) => !(code in errorCodes())).sort()).toEqual([]);
  expect(errorCodes().no_pending?.status).toBe(409);
});
