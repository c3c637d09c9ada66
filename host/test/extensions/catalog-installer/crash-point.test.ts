import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { expect, test } from 'vitest';
import { CRASH_POINTS, createCrashHook } from '../../../src/features/extensions/catalog-installer/index.js';

test('without SVC_TEST_CRASH_AT, or with a value that names no point, every point is inert', () => {
  for (const env of [{}, { SVC_TEST_CRASH_AT: '' }, { SVC_TEST_CRASH_AT: 'install' }, { SVC_TEST_CRASH_AT: 'INSTALL:JOURNALED' }]) {
    const crash = createCrashHook(env);
    for (const point of CRASH_POINTS) crash(point);
  }
  expect(process.exitCode ?? 0).toBe(0);
});

test('a named point kills the process with SIGKILL at that point, not before', () => {
  // The hook file as JavaScript, in a process of its own (the kill must not take the test runner).
  const dir = mkdtempSync(join(tmpdir(), 'svc-crash-point-'));
  const module = join(dir, 'crash-point.mjs');
  const source = readFileSync(join(import.meta.dirname, '../../../src/features/extensions/catalog-installer/crash-point.ts'), 'utf8');
  writeFileSync(module, transformSync(source, { loader: 'ts', format: 'esm' }).code);
  const script = `const { createCrashHook } = await import(${JSON.stringify(module)});
const crash = createCrashHook({ SVC_TEST_CRASH_AT: 'update:moved' });
crash('update:staged'); process.stdout.write('passed staged\\n');
crash('update:moved'); process.stdout.write('survived\\n');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  expect(run.stdout).toBe('passed staged\n');
  expect(run.signal).toBe('SIGKILL');
});
