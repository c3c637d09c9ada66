// The README's first command must work on a machine without a compiler: the PTY dependency comes
// with prebuilt binaries, so installing it runs no build step. This installs the exact dependency
// the repository pins into an empty project with a clean HOME and a PATH holding only Node (no
// python, make, g++ or node-gyp headers), from the local store (metadata from the registry when it is not cached), then opens a
// real terminal with it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function pnpmEntry(): string {
  const found = spawnSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('pnpm is not on PATH (the README installs it with npm install -g pnpm@10)');
  return realpathSync(found);
}

test('the pinned PTY dependency installs and opens a terminal with no build tools on PATH', () => {
  const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['node-pty'];
  expect(pinned).toMatch(/^npm:@lydell\/node-pty@/);
  const store = execFileSync(process.execPath, [pnpmEntry(), 'store', 'path'], { cwd: root, encoding: 'utf8' }).trim();

  const project = mkdtempSync(join(tmpdir(), 'svc-fresh-'));
  const home = mkdtempSync(join(tmpdir(), 'svc-fresh-home-'));
  dirs.push(project, home);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', private: true, dependencies: { 'node-pty': pinned } }));
  // The machine's trust in its registry comes along (a CA it adds for a TLS-inspecting proxy): it is not
  // a build tool, and where a Node's own global npmrc does not name it (a Node from outside the system
  // prefix, such as the pinned Node 24), the clean environment would otherwise lose it.
  // vitest.config.ts keeps it in SVC_TEST_MACHINE_CA_CERTS (the other tests start faster without it).
  const machineCa = process.env.SVC_TEST_MACHINE_CA_CERTS ?? process.env.NODE_EXTRA_CA_CERTS;
  const trust = machineCa ? { NODE_EXTRA_CA_CERTS: machineCa } : {};
  const env = { HOME: home, PATH: dirname(process.execPath), npm_config_store_dir: store, ...trust };
  const install = spawnSync(process.execPath, [pnpmEntry(), 'install', '--prefer-offline', '--reporter', 'append-only'], { cwd: project, env, encoding: 'utf8' });
  expect(install.stderr + install.stdout).not.toMatch(/gyp|make: |g\+\+/);
  expect(install.status, install.stderr + install.stdout).toBe(0);

  const probe = `const pty = require('node-pty');
const term = pty.spawn(process.execPath, ['-e', 'process.stdout.write(String(process.stdout.isTTY))'], { cols: 80, rows: 24, env: {} });
let out = ''; term.onData((d) => (out += d)); term.onExit(({ exitCode }) => { console.log(JSON.stringify({ out, exitCode })); });`;
  const run = spawnSync(process.execPath, ['-e', probe], { cwd: project, env, encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout.trim()) as { out: string; exitCode: number };
  expect(result).toEqual({ out: 'true', exitCode: 0 });
});
