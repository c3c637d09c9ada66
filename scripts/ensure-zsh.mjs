#!/usr/bin/env node
// The shell-completion tests load `svc completion zsh` into a real zsh (bash is always there). On a
// machine without zsh, install it with the system's package manager when we may (root with apt-get);
// otherwise say how, and let those tests fail with the same words.
import { spawnSync } from 'node:child_process';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
if (has('zsh')) process.exit(0);

const canApt = process.getuid?.() === 0 && has('apt-get');
if (!canApt) {
  process.stderr.write('note: no zsh on PATH; the shell-completion tests need it: apt-get install -y zsh\n');
  process.exit(0);
}
process.stderr.write('installing zsh for the shell-completion tests (apt-get install -y zsh)…\n');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'zsh']]) {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (run.status !== 0) {
    process.stderr.write(`note: apt-get ${args.join(' ')} failed (exit ${run.status}); the shell-completion tests will say so\n`);
    process.exit(0);
  }
}
