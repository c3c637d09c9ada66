// Crash quarantine and the isolation switch, through the real `svc` executable: a provider whose
// calls crash 3 times in the window is quarantined (broken, crash_loop) in either mode, listed by
// `svc ext doctor`, and serves again only once the person enables it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;

beforeAll(async () => {
  svc = createSvcSandbox();
  for (const name of ['echo', 'hostile']) {
    expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider(name)])).code).toBe(0);
    expect((await svc.run(['ext', 'enable', `svc-test.${name}`, '--yes'])).code).toBe(0);
  }
});
afterAll(() => svc.cleanup());

const listed = async (id: string) => {
  const list = await svc.run(['ext', 'list', '--json']);
  return (JSON.parse(list.stdout) as Array<{ id: string; state: string; error?: { code: string }; isolation: { mode: string; enforces: string[] } }>).find((r) => r.id === id)!;
};

describe.each(['worker', 'process'] as const)('in %s mode', (mode) => {
  test('the third crash quarantines the provider until it is enabled again; others keep serving', async () => {
    const enabled = await svc.run(['ext', 'enable', 'svc-test.hostile', '--yes', '--isolation', mode]);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain(`runs as: ${mode}`);
    expect((await listed('svc-test.hostile')).isolation.mode).toBe(mode);

    for (let crash = 1; crash <= 3; crash++) {
      const result = await svc.run(['query', '--provider', 'svc-test.hostile', 'crash']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error worker_crashed');
    }
    const refused = await svc.run(['query', '--provider', 'svc-test.hostile', 'echo hello']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('crash_loop');
    expect(await listed('svc-test.hostile')).toMatchObject({ state: 'broken', error: { code: 'crash_loop' } });

    const doctor = await svc.run(['ext', 'doctor', 'svc-test.hostile', '--json']);
    const report = JSON.parse(doctor.stdout) as { crashes: Array<{ at: string; method: string; isolation: string; reason: string }> };
    expect(report.crashes.filter((c) => c.isolation === mode)).toHaveLength(3);
    expect(report.crashes[0]).toMatchObject({ method: 'generate', isolation: mode, reason: expect.stringContaining('hostile crash') });

    expect((await svc.run(['query', '--provider', 'svc-test.echo', 'still here'])).code).toBe(0);
    expect((await listed('svc-test.echo')).state).toBe('enabled');

    expect((await svc.run(['ext', 'enable', 'svc-test.hostile', '--yes'])).code).toBe(0);
    const served = await svc.run(['query', '--provider', 'svc-test.hostile', 'echo back']);
    expect(served.code).toBe(0);
    expect(served.stdout).toContain('back');
  });
});

test('a developer-mode provider runs on a worker by default; --isolation rejects an unknown mode', async () => {
  expect((await listed('svc-test.echo')).isolation.mode).toBe('worker');
  const bad = await svc.run(['ext', 'enable', 'svc-test.echo', '--yes', '--isolation', 'sandbox']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--isolation must be process or worker');
});
