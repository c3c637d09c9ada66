#!/usr/bin/env node
// The web UI's tests drive a real Chromium (Debian's `chromium` package, headless, through
// playwright-core). On a machine without it, install it with the system's package manager when we
// may (root with apt-get); otherwise say how, and let the browser tests fail with the same words.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const executable = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(executable)) process.exit(0);

const canApt = process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!canApt) {
  process.stderr.write(`note: no Chromium at ${executable}; the browser tests need it: apt-get install -y chromium (or set SVC_CHROMIUM)\n`);
  process.exit(0);
}
process.stderr.write('installing Debian\'s chromium for the browser tests (apt-get install -y chromium)…\n');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (run.status !== 0) {
    process.stderr.write(`note: apt-get ${args.join(' ')} failed (exit ${run.status}); the browser tests will say so\n`);
    process.exit(0);
  }
}
