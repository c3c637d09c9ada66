// The hardened mode's isolation probe starts processes (`unshare`, `prlimit`): a listing must start
// none of them. Shims of both tools first on PATH count every start. A listing reads the last live
// answer from `$SVC_HOME/isolation-probe.json` while its key (PATH among it) still matches this
// machine, and says "not yet probed" when it does not; a launch and `svc doctor` always probe live.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe } from '../support/svc-serve.js';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';

const CODEX = 'svc-official.codex';
let svc: SvcSandbox;
let marker: string;
let project: string;

type Isolation = { mode: string; enforces: string[]; notEnforced: string[]; probed: boolean };
const probeStarts = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []);
const listed = async (env: NodeJS.ProcessEnv = {}) => {
  const list = await svc.run(['ext', 'list', '--json'], { env });
  expect(list.code, list.stderr).toBe(0);
  return (JSON.parse(list.stdout) as Array<{ id: string; isolation: Isolation }>).find((row) => row.id === CODEX)!.isolation;
};

beforeAll(async () => {
  const shims = mkdtempSync(join(tmpdir(), 'svc-probe-shims-'));
  svc = createSvcSandbox([shims, join(REPO_ROOT, 'test/fake-clis/codex')]);
  marker = join(svc.home, 'probe-starts.log');
  project = join(svc.home, 'project');
  mkdirSync(project);
  for (const tool of ['unshare', 'prlimit']) {
    const real = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(shims, tool), `#!/bin/sh\necho ${tool} >> '${marker}'\n${real ? `exec '${real}' "$@"` : 'exit 1'}\n`);
    chmodSync(join(shims, tool), 0o755);
  }
  const enabled = await svc.run(['ext', 'enable', CODEX, '--yes', '--isolation', 'process']);
  expect(enabled.code, enabled.stderr).toBe(0);
  return () => rmSync(shims, { recursive: true, force: true });
});
afterAll(() => svc.cleanup());

describe('the isolation record', () => {
  test('the enable prompt probes live and records the answer', () => {
    // Off Linux the probe starts nothing: it knows none of the tools work there.
    if (process.platform === 'linux') expect(probeStarts().length).toBeGreaterThan(0);
    expect(existsSync(join(svc.home, 'isolation-probe.json'))).toBe(true);
  });

  test('svc ext list starts no probe and shows the recorded answer', async () => {
    rmSync(marker, { force: true });
    const isolation = await listed();
    expect(probeStarts()).toEqual([]);
    expect(isolation.mode).toBe('process');
    expect(isolation.probed).toBe(true);
    const recorded = JSON.parse(readFileSync(join(svc.home, 'isolation-probe.json'), 'utf8')) as { probe: { namespaces: boolean } };
    expect(isolation.enforces.includes('no network (own network namespace)')).toBe(recorded.probe.namespaces);
    expect(isolation.notEnforced.includes('network not isolated')).toBe(!recorded.probe.namespaces);
  });

  test("svc serve's start and its HTTP listing start no probe", async () => {
    rmSync(marker, { force: true });
    const server = await startServe(svc);
    try {
      const { status, body } = await server.api<{ items: Array<{ id: string; isolation: Isolation }> }>('GET', '/api/extensions');
      expect(status).toBe(200);
      expect(body.items.find((row) => row.id === CODEX)!.isolation.probed).toBe(true);
      expect(probeStarts()).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('another PATH makes the record stale: the listing says not yet probed, until svc doctor probes again', async () => {
    const otherPath = { PATH: [svc.env.PATH, join(svc.home, 'elsewhere')].join(delimiter) };
    rmSync(marker, { force: true });
    const stale = await listed(otherPath);
    expect(stale.probed).toBe(false);
    expect(stale.enforces).toContain('reads only its own package');
    expect(stale.enforces.filter((line) => /network|signal|socket|RLIMIT/.test(line))).toEqual([]);
    expect(stale.notEnforced).toEqual([]);
    const text = await svc.run(['ext', 'list'], { env: otherPath });
    expect(text.stdout).toMatch(new RegExp(`${CODEX.replaceAll('.', '\\.')}.*process \\(not yet probed\\)`));
    expect(probeStarts()).toEqual([]);

    const doctor = await svc.run(['doctor'], { env: otherPath });
    expect(doctor.code, doctor.stderr).toBe(0);
    if (process.platform === 'linux') expect(probeStarts().length).toBeGreaterThan(0);
    expect((await listed(otherPath)).probed).toBe(true);
    // The first PATH's answer was replaced: under it the record is stale now.
    expect((await listed()).probed).toBe(false);
  });

  test('a launch probes live and records what it found, even where the record matches', async () => {
    for (let launch = 0; launch < 2; launch++) {
      rmSync(marker, { force: true });
      const query = await svc.run(['query', '--json', '--provider', CODEX, '--cwd', project, 'say hi']);
      expect(query.code, query.stderr).toBe(0);
      if (process.platform === 'linux') expect(probeStarts().length).toBeGreaterThan(0);
      rmSync(marker, { force: true });
      expect((await listed()).probed).toBe(true);
      expect(probeStarts()).toEqual([]);
    }
  });
});
