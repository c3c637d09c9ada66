#!/usr/bin/env node
// `pnpm screenshots`: runs the browser tests with their screenshots written to docs/screenshots (the
// README's pictures). A plain test run writes them to a temporary folder instead.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const run = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', '--project', 'slow', 'test/web'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SVC_SCREENSHOTS_DIR: 'docs/screenshots' },
});
process.exit(run.status ?? 1);
