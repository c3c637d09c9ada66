// What svc says about the Node it runs on: a Node older than 20 is refused before anything loads, a
// line past its end of life is named once at `svc serve` and by `svc doctor`. It passes on the
// machine's Node and on Node 24 (scripts/node-line.mjs); CI sets SVC_NODE18_BIN to a real Node 18.
import { spawnSync } from 'node:child_process';
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
    const { HOST_VERSION } = await import('../../host/src/config/host-version.js');
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
