#!/usr/bin/env node
// `node scripts/run-side-by-side.mjs "<command>" "<command>"…`: runs shell commands at the same
// time and exits non-zero when any of them did. `pnpm test` typechecks this way: each tsc uses one
// core, so on two cores the host's and the providers' typechecks take the time of the longer one.
// Each command's output is held and printed whole when it ends, so the outputs do not interleave.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/run-side-by-side.mjs "<command>" ["<command>"…]\n');
  process.exit(2);
}

const runs = commands.map(
  (command) =>
    new Promise((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
      child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
      child.once('close', (code, signal) => {
        process.stdout.write(`> ${command}\n${Buffer.concat(chunks).toString('utf8')}`);
        const ok = code === 0;
        if (!ok) process.stderr.write(`failed (${signal ?? `exit ${code}`}): ${command}\n`);
        resolve(ok);
      });
    }),
);
const results = await Promise.all(runs);
process.exitCode = results.every(Boolean) ? 0 : 1;
