// The probe that runs is the probe the person confirmed. An update with the same permissions but
// another CLI probe waits for confirmation like a changed permission set; a developer provider whose
// manifest now names another probe is refused (`probe_changed`) until it is enabled again. Until
// then the new probe runs nowhere: not on update, `ext doctor`, a query or the prompt.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFixtureCatalog, type FixtureCatalog } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-test.probe-change';

let catalog: FixtureCatalog;
let svc: SvcSandbox;
let dir: string;

// A probe through /bin/sh that leaves a marker file, then answers a version.
function probeCommand(marker: string) {
  return { default: 'svc-no-such-cli', aliases: [], knownPaths: { [process.platform]: ['/bin/sh'] }, versionArgs: ['-c', `: > ${marker}; echo 1.0.0`] };
}

beforeAll(async () => {
  svc = createSvcSandbox();
  dir = mkdtempSync(join(tmpdir(), 'svc-probe-change-'));
  catalog = await startFixtureCatalog([
    { folder: 'probe-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'], command: probeCommand(join(dir, 'first-probe')) },
    { folder: 'probe-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'], command: probeCommand(join(dir, 'second-probe')) },
  ]);
  svc.env.NODE_EXTRA_CA_CERTS = catalog.ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = catalog.server.baseUrl;
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  svc?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a catalog update with the same permissions and another probe', () => {
  test('is staged for confirmation, and its probe runs only once confirmed', async () => {
    expect((await svc.run(['ext', 'install', `${ID}@1.0.0`])).code).toBe(0);
    const enabled = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(existsSync(join(dir, 'first-probe'))).toBe(true);

    const updated = await svc.run(['ext', 'update', `${ID}@1.1.0`]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(`${ID} 1.1.0 is staged, but its CLI probe differs from the confirmed one:`);
    expect(updated.stdout).toContain(`now:       svc-no-such-cli -c : > ${join(dir, 'second-probe')}; echo 1.0.0`);
    const listed = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; version: string; pendingVersion?: string }>;
    expect(listed.find((record) => record.id === ID)).toMatchObject({ version: '1.0.0', pendingVersion: '1.1.0' });

    // The version that serves keeps its confirmed probe; the new one runs nowhere yet.
    expect((await svc.run(['ext', 'doctor', ID])).code).toBe(0);
    // A query loads the serving version (its preflight probes the CLI with the confirmed probe).
    const answered = await svc.run(['query', '--provider', ID, 'hello']);
    expect(answered.stderr).not.toMatch(/error (probe_changed|extension_needs_confirmation)/);
    expect(existsSync(join(dir, 'second-probe'))).toBe(false);
    const asked = await svc.run(['ext', 'enable', ID]);
    expect(asked.stderr).toMatch(/^error confirmation_required: /m);
    expect(asked.stdout).toContain(`after you confirm, svc runs its version probe: /bin/sh -c ': > ${join(dir, 'second-probe')}; echo 1.0.0'`);
    expect(asked.stdout).toContain(`the probe changed: you confirmed svc-no-such-cli -c : > ${join(dir, 'first-probe')}; echo 1.0.0 before`);
    expect(existsSync(join(dir, 'second-probe'))).toBe(false);

    const confirmed = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(existsSync(join(dir, 'second-probe'))).toBe(true);
  });
});

describe('a developer provider whose manifest names another probe', () => {
  test('is refused with probe_changed, and the new probe runs on neither a query nor doctor', async () => {
    const packageDir = join(dir, 'dev-provider');
    cpSync(join(svc.home, 'extensions/store', ID, '1.0.0'), packageDir, { recursive: true });
    // The store copy is read-only; the developer's folder is theirs to edit.
    spawnSync('chmod', ['-R', 'u+w', packageDir]);
    const file = join(packageDir, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; svc: { id: string; command: unknown } };
    pkg.name = '@svc-test/svc-provider-probe-change-dev';
    pkg.svc.id = `${ID}-dev`;
    pkg.svc.command = probeCommand(join(dir, 'dev-first'));
    rmSync(file, { force: true });
    writeFileSync(file, JSON.stringify(pkg));
    expect((await svc.run(['ext', 'dev', 'add', packageDir])).code).toBe(0);
    expect((await svc.run(['ext', 'enable', `${ID}-dev`, '--yes', '--isolation', 'worker'])).code).toBe(0);
    expect(existsSync(join(dir, 'dev-first'))).toBe(true);

    pkg.svc.command = probeCommand(join(dir, 'dev-second'));
    writeFileSync(file, JSON.stringify(pkg));
    const query = await svc.run(['query', '--provider', `${ID}-dev`, 'hello']);
    expect(query.code).not.toBe(0);
    expect(query.stderr).toMatch(/^error probe_changed: /m);
    expect(query.stderr).toContain(`run \`svc ext enable ${ID}-dev\` to review it`);
    await svc.run(['ext', 'doctor', `${ID}-dev`]);
    expect(existsSync(join(dir, 'dev-second'))).toBe(false);
    const listed = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string; error?: { code: string } }>;
    expect(listed.find((record) => record.id === `${ID}-dev`)).toMatchObject({ state: 'needs-confirmation', error: { code: 'probe_changed' } });

    expect((await svc.run(['ext', 'enable', `${ID}-dev`, '--yes'])).code).toBe(0);
    expect(existsSync(join(dir, 'dev-second'))).toBe(true);
  });
});
