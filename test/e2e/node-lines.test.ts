// What svc says about the Node it runs on: a Node older than 20 is refused before anything loads, a
// line past its end of life is named once at `svc serve` and by `svc doctor`. It passes on the
// machine's Node and on Node 24 (scripts/node-line.mjs); CI sets SVC_NODE18_BIN and SVC_NODE20_BIN to real ones.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from '../support/svc-serve.js';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, waitFor } from '../support/svc-process.js';

const svc = createSvcSandbox();
afterAll(() => svc.cleanup());
const major = Number(process.versions.node.split('.')[0]);

// Without a real Node 18 (CI provides one), the same entry runs with Node's reported version set to
// 18 before it loads: the check reads process.versions, which this preload changes.
const PRETEND_18 = `data:text/javascript,${encodeURIComponent(
  "Object.defineProperty(process.versions, 'node', { value: '18.20.8' }); Object.defineProperty(process, 'version', { value: 'v18.20.8' });",
)}`;

describe('Node lines', () => {
  it('svc --version answers without loading the bundle, the same version as the host', async () => {
    const { HOST_VERSION } = await import('@svc-org/host/platform/config/host-version');
    const rootPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(rootPackage.version).toBe(HOST_VERSION);
    for (const flag of ['--version', '-v', 'version']) {
      const run = await svc.run([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${HOST_VERSION}\n`);
    }
  });

  it('refuses a Node older than 20 with a clear message and no stack trace', () => {
    const node18 = process.env.SVC_NODE18_BIN;
    const run = node18
      ? spawnSync(join(node18, 'node'), [SVC_BIN, 'task', 'list'], { env: svc.env, encoding: 'utf8' })
      : spawnSync(process.execPath, ['--import', PRETEND_18, SVC_BIN, 'task', 'list'], { env: svc.env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('svc needs Node.js 20 or newer (22 or 24 recommended); this is Node v18.20.8.');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
  });

  it('svc doctor says what this Node gives the hardened mode, and warns on Node 20', async () => {
    const run = await svc.run(['doctor', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.node.version).toBe(process.version);
    const warning = report.warnings.find((w: { code: string }) => w.code === 'node_line_unsupported');
    if (major === 20) {
      expect(report.node.permissionFlag).toBe('--experimental-permission');
      expect(warning.message).toContain('past its end of life (2026-04-30)');
      expect(warning.message).toContain('--experimental-permission');
    } else {
      expect(major).toBeGreaterThanOrEqual(22);
      expect(report.node.permissionFlag).toBe('--permission');
      expect(report.compileCache).toBe(true);
      expect(warning).toBeUndefined();
    }
    const text = await svc.run(['doctor']);
    expect(text.stdout).toContain(`on Node ${process.version}`);
    expect(text.stdout).toContain('permission model');
    expect(text.stdout.includes('warning (node_line_unsupported)')).toBe(major === 20);
  });

  it('svc serve names a Node past its end of life once, on stderr', async () => {
    const serve = await startServe(svc);
    try {
      await waitFor(() => serve.child.output.stdout.includes('web UI: open'), 20_000, 'the web UI line');
      const notes = serve.child.output.stderr.split('\n').filter((line) => line.includes('past its end of life'));
      expect(notes.length).toBe(major === 20 ? 1 : 0);
      expect(serve.child.output.stdout).not.toContain('end of life');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

// Whatever Node runs the tests, the two things svc says about the lines around it are proven on a real
// binary of each: Node 20 (the machine's own when it is 20, else SVC_NODE20_BIN, which CI sets) and
// Node 18 (SVC_NODE18_BIN). Without one, the same entry runs with the reported version changed first.
describe('Node lines around the one the tests run on', () => {
  const pretend = (version: string) =>
    `data:text/javascript,${encodeURIComponent(
      `Object.defineProperty(process.versions, 'node', { value: '${version}' }); Object.defineProperty(process, 'version', { value: 'v${version}' });`,
    )}`;
  /** The command line that runs `svc` on the given line: a real binary where there is one. */
  function nodeOf(line: 18 | 20): { command: string; preload: string[]; real: boolean } {
    const bin = line === 20 && major === 20 ? process.execPath : process.env[`SVC_NODE${line}_BIN`] ? join(process.env[`SVC_NODE${line}_BIN`]!, 'node') : undefined;
    if (bin) return { command: bin, preload: [], real: true };
    return { command: process.execPath, preload: ['--import', pretend(line === 20 ? '20.20.2' : '18.20.8')], real: false };
  }

  it('refuses a Node older than 20 on every way in, before the bundle loads: --version, mcp, serve', () => {
    const node18 = nodeOf(18);
    const version = node18.real ? spawnSync(node18.command, ['--version'], { encoding: 'utf8' }).stdout.trim() : 'v18.20.8';
    expect(version).toMatch(/^v18\./);
    for (const args of [['--version'], ['mcp'], ['serve', '--port', '0'], ['doctor', '--json']]) {
      const run = spawnSync(node18.command, [...node18.preload, SVC_BIN, ...args], { env: svc.env, encoding: 'utf8', timeout: 20_000 });
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.stderr).toBe(`svc needs Node.js 20 or newer (22 or 24 recommended); this is Node ${version}.\nInstall a maintained Node.js line and run svc again.\n`);
      expect(run.stdout).toBe('');
    }
  });

  it('on Node 20, svc doctor warns once that the line is past its end of life and what the hardened mode lacks', () => {
    const node20 = nodeOf(20);
    const run = spawnSync(node20.command, [...node20.preload, SVC_BIN, 'doctor', '--json'], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.node.version).toMatch(/^v20\./);
    const warnings = report.warnings.filter((w: { code: string }) => w.code === 'node_line_unsupported');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain(`Node ${report.node.version} is past its end of life (2026-04-30) and gets no security fixes`);
    expect(warnings[0].message).toContain('Use Node 22 or 24.');
    if (node20.real) {
      expect(report.node.permissionFlag).toBe('--experimental-permission');
      expect(warnings[0].message).toContain('the permission model the hardened mode rests on is experimental here (--experimental-permission)');
    }
    const text = spawnSync(node20.command, [...node20.preload, SVC_BIN, 'doctor'], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^node line +past its end of life 2026-04-30$/m);
    expect(text.stdout.split('\n').filter((line) => line.startsWith('warning (node_line_unsupported): '))).toEqual([
      `warning (node_line_unsupported): ${warnings[0].message}`,
    ]);
  });

  it('on Node 20, svc serve says it once on stderr at start, and not again while it runs', async () => {
    const node20 = nodeOf(20);
    const child = spawn(node20.command, [...node20.preload, SVC_BIN, 'serve'], { env: { ...svc.env, SVC_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output.stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output.stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.stdout.includes('web UI: open'), 60_000, `the web UI line\n${output.stdout}\n${output.stderr}`);
      // A request in between: the note belongs to the start, not to each request.
      const url = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout)![1];
      const token = readFileSync(join(svc.home, 'token'), 'utf8').trim();
      expect((await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const notes = output.stderr.split('\n').filter((line) => line.includes('past its end of life'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/^note: Node v20\.\d+\.\d+ is past its end of life \(2026-04-30\) and gets no security fixes/);
      expect(output.stdout).not.toContain('end of life');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
