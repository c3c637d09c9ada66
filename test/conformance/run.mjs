#!/usr/bin/env node
// `pnpm test:conformance [-- <cli>...] [vitest options]`: installs the pinned real CLIs (and a newer
// Node where a CLI needs one) from the npm registry into a cache outside the project's dependencies,
// puts launchers named like the real commands first on PATH, and runs the conformance tests
// (vitest.conformance.config.ts) that drive them through the real `svc`.
//
//   pnpm test:conformance                 every CLI
//   pnpm test:conformance -- codex qwen-code
//   pnpm test:conformance -- mcp-server         (the MCP conformance suite against /mcp of svc serve)
//   pnpm test:conformance -- codex -t resume      (options after the names go to vitest)
//   SVC_CONFORMANCE_CACHE=/var/cache/svc-conformance pnpm test:conformance
//   SVC_CONFORMANCE_ISOLATION=process pnpm test:conformance -- qwen-code   (hardened mode)
//
// The cache (default ~/.cache/svc-conformance) holds one folder per CLI and version; a folder an
// earlier run completed is reused, so only the first run downloads.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { installPinnedPackage } from './install-pinned-package.mjs';
import { packageJsonOf, writeLauncher } from './write-launcher.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const pins = JSON.parse(readFileSync(join(here, 'pinned-clis.json'), 'utf8'));
const log = (line) => process.stdout.write(`${line}\n`);

// CLI names first; from the first option on, everything goes to vitest (e.g. `codex -t resume`).
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const firstOption = args.findIndex((arg) => arg.startsWith('-'));
const wanted = firstOption === -1 ? args : args.slice(0, firstOption);
const vitestArgs = firstOption === -1 ? [] : args.slice(firstOption);
// Besides the CLIs, suites the project is checked by (the MCP conformance suite against /mcp).
const suites = pins.suites ?? {};
const unknown = wanted.filter((name) => !(name in pins.clis) && !(name in suites));
if (unknown.length > 0) {
  process.stderr.write(`unknown CLI or suite ${unknown.join(', ')}: choose from ${[...Object.keys(pins.clis), ...Object.keys(suites)].join(', ')}\n`);
  process.exit(2);
}
const selectedAll = wanted.length > 0 ? wanted : [...Object.keys(pins.clis), ...Object.keys(suites)];
const selected = selectedAll.filter((name) => name in pins.clis);
const selectedSuites = selectedAll.filter((name) => name in suites);

const cache = resolve(process.env.SVC_CONFORMANCE_CACHE || join(homedir(), '.cache', 'svc-conformance'));
const binDir = join(cache, 'bin');
mkdirSync(binDir, { recursive: true });

const started = Date.now();
log(`conformance: CLI cache ${cache}`);
const pinnedNodes = new Map();
const installed = {};
const installedSuites = {};
try {
  for (const name of selected) {
    const pin = pins.clis[name];
    const result = await installPinnedPackage({ cache, name, packageName: pin.package, version: pin.version, log });
    log(`  ${pin.package}@${pin.version}: ${result.reused ? 'cached' : `installed in ${result.seconds.toFixed(1)} s`}`);
    const node = pin.launcher === 'node' ? await nodeFor(pin, result.dir) : undefined;
    const launcher = writeLauncher({ binDir, pin, installDir: result.dir, node });
    installed[name] = { package: pin.package, version: pin.version, command: pin.command, launcher, ...(node ? { node } : {}) };
  }
  for (const name of selectedSuites) {
    const pin = suites[name];
    const result = await installPinnedPackage({ cache, name, packageName: pin.package, version: pin.version, log });
    log(`  ${pin.package}@${pin.version}: ${result.reused ? 'cached' : `installed in ${result.seconds.toFixed(1)} s`}`);
    const node = await pinnedNode(pins.node);
    installedSuites[name] = { package: pin.package, version: pin.version, entry: join(result.dir, 'node_modules', pin.package, pin.bin), node: node.path };
  }
} catch (error) {
  process.stderr.write(`conformance: ${error.message}\n`);
  process.exit(1);
}
const installSeconds = (Date.now() - started) / 1000;
log(`conformance: CLIs ready in ${installSeconds.toFixed(1)} s; launchers in ${binDir}`);

const files = selectedAll.map((name) => `test/conformance/${name}.conformance.test.ts`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.conformance.config.ts', ...vitestArgs, ...files], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PATH: [binDir, process.env.PATH ?? ''].join(delimiter),
    SVC_CONFORMANCE_BIN: binDir,
    SVC_CONFORMANCE_CLIS: JSON.stringify(installed),
    SVC_CONFORMANCE_SUITES: JSON.stringify(installedSuites),
  },
});
const testsStarted = Date.now();
const code = await new Promise((resolvePromise) => child.on('close', (exitCode, signal) => resolvePromise(exitCode ?? (signal ? 1 : 0))));
log(`conformance: install ${installSeconds.toFixed(1)} s, tests ${((Date.now() - testsStarted) / 1000).toFixed(1)} s`);
process.exit(code);

/** The Node that runs a CLI: this one when the package's engines allow it, else its pinned newer one. */
async function nodeFor(pin, installDir) {
  const engines = packageJsonOf(pin, installDir).engines?.node;
  if (!engines || semver.satisfies(process.version, engines)) return process.execPath;
  // A CLI may pin its own Node (OpenClaw needs 24); the others share the suite's pinned one.
  const nodePin = pin.node ?? pins.node;
  if (`${process.platform}-${process.arch}` !== 'linux-x64') {
    throw new Error(`${pin.package}@${pin.version} needs Node ${engines}; run the suite with such a Node (the pinned ${nodePin.package} is linux-x64 only)`);
  }
  const node = await pinnedNode(nodePin);
  if (!semver.satisfies(node.version, engines)) throw new Error(`${pin.package}@${pin.version} needs Node ${engines}, not the pinned ${node.version}`);
  return node.path;
}

/** The pinned Node from the registry (installed once into the cache). */
async function pinnedNode(nodePin) {
  let node = pinnedNodes.get(nodePin.version);
  if (!node) {
    const result = await installPinnedPackage({ cache, name: 'node', packageName: nodePin.package, version: nodePin.version, log });
    log(`  ${nodePin.package}@${nodePin.version}: ${result.reused ? 'cached' : `installed in ${result.seconds.toFixed(1)} s`}`);
    node = { path: join(result.dir, 'node_modules', nodePin.package, nodePin.binary), version: nodePin.version };
    pinnedNodes.set(nodePin.version, node);
  }
  return node;
}
