// `svc ext show` says only what is true of the record it describes: rendered for each isolation mode
// and each state, every line is matched to the part of the record it speaks of and checked against
// it, and a sentence that refers to another section finds that section printed.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HostMethods, type Manifest } from '@svc-org/ai-sdk';
import { openHostServices } from '../../src/host-services.js';
import { computeTreeDigest } from '../../src/features/extensions/preflight/index.js';
import { probeFingerprint } from '../../src/features/extensions/probe-fingerprint.js';
import type { ShownExtension } from '../../src/operations/extension/format-extension-description.js';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';

const ECHO = 'svc-test.echo';
let home: string;
let echoDir: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-ext-show-'));
  echoDir = copyFixtureProvider('echo');
  expect((await runInProcess(home, 'ext', 'dev', 'add', echoDir)).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function show(id: string): Promise<{ text: string; shown: ShownExtension }> {
  const text = await runInProcess(home, 'ext', 'show', id);
  expect(text.code, text.stderr).toBe(0);
  const json = await runInProcess(home, 'ext', 'show', id, '--json');
  return { text: text.stdout, shown: JSON.parse(json.stdout) as ShownExtension };
}

const list = (text: string) => text.split('; ').filter(Boolean);

/**
 * Each printed line, matched to what it claims, checked against the description; a line no rule
 * accounts for fails the test, so a new sentence comes with its check.
 */
function expectEverySentenceTrue(text: string, shown: ShownExtension): void {
  const lines = text.trimEnd().split('\n');
  const printed = (prefix: string) => lines.some((line) => line.startsWith(prefix));
  const spawnConfirmed = (shown.state === 'enabled' || shown.pending !== undefined) && shown.grantedPermissions.includes('process:spawn');
  for (const line of lines) {
    const rest = (prefix: string) => line.slice(prefix.length);
    if (line === `${shown.displayName} (${shown.id} ${shown.version}, ${shown.source}, ${shown.state})`) continue;
    if (line === `  ${shown.description}`) continue;
    if (line.startsWith('requested permissions: ')) expect(rest('requested permissions: ')).toBe(shown.requestedPermissions.join(', ') || '(none)');
    else if (line.startsWith('granted permissions:   ')) expect(rest('granted permissions:   ')).toBe(shown.grantedPermissions.join(', ') || '(none)');
    else if (line.startsWith('never used (last 30 days): ')) expect(line).toBe(`never used (last 30 days): ${shown.unusedPermissions!.join(', ')} (see svc ext stats ${shown.id})`);
    else if (line.startsWith('compatibility: ')) expect(line).toBe(`compatibility: svc ${shown.compatibility!.svc}; node ${shown.compatibility!.node}; cli ${shown.compatibility!.cli}`);
    else if (line.startsWith('CLI: ')) expect(line).toBe(`CLI: ${shown.cli!.default} → ${shown.cli!.found}`);
    else if (line.startsWith('version probe: ')) {
      expect(line.startsWith(`version probe: ${shown.cli!.found} --version (runs `)).toBe(true);
      // The probe already ran for a provider serving with process:spawn confirmed; for any other it waits.
      if (spawnConfirmed) expect(line).toContain('(runs as the provider loads; you confirmed process:spawn)');
      else expect(line).toContain('(runs only after you confirm process:spawn)');
    } else if (line.startsWith('update to ')) {
      expect(shown.state).toBe('needs-confirmation');
      expect(line).toBe(
        `update to ${shown.pending!.version} is staged and asks for new permissions: ${shown.pending!.newPermissions.join(', ')}; ${shown.version} serves until you confirm: svc ext enable ${shown.id}`,
      );
    } else if (line.startsWith('waits for your confirmation')) {
      expect(shown.state).toBe('needs-confirmation');
      expect(line).toBe(`waits for your confirmation: ${shown.error!.message} (${shown.error!.code}); review it with: svc ext enable ${shown.id}`);
    } else if (line.startsWith('broken: ')) {
      expect(shown.state).toBe('broken');
      expect(line).toBe(`broken: ${shown.error!.code}: ${shown.error!.message}`);
    } else if (line.startsWith('✗ ')) {
      expect(shown.checks.filter((check) => !check.ok).map((check) => (check.ok ? '' : `✗ ${check.check}  ${check.code}: ${check.message} — fix: ${check.fix}`))).toContain(line);
    } else if (line.startsWith('integration files: ')) {
      const files = rest('integration files: ');
      expect(files === '(none)' ? [] : files.split(', ')).toEqual(shown.integrationFiles);
    } else if (line.startsWith('interactive sessions: ')) {
      // What its sessions start: the CLI found, and only under process:spawn.
      expect(line).toBe(shown.sessions);
      if (shown.requestedPermissions.includes('process:spawn')) expect(line).toContain(`start the CLI ${shown.cli!.found} and nothing else`);
      else expect(line).toContain('none will start');
    } else if (line.startsWith('runs as: ')) expect(rest('runs as: ')).toBe(shown.isolation.runsAs);
    else if (line.startsWith('  enforces:     ')) expect(list(rest('  enforces:     '))).toEqual(shown.isolation.enforces);
    else if (line.startsWith('  not enforced: ')) {
      if (shown.isolation.probed) expect(rest('  not enforced: ')).toBe(shown.isolation.notEnforced.join('; ') || '(nothing listed)');
      else expect(rest('  not enforced: ')).toMatch(/not yet probed on this machine/);
    } else if (shown.notice.includes(line)) {
      // The notice: each of its claims holds for this record and what it refers to is printed.
      if (line.includes('"not enforced"')) expect(printed('  not enforced: ')).toBe(true);
      if (line.includes('storage')) {
        expect(line).toContain("the provider's own storage and the log need none");
        expect(HostMethods['$storage.get'].permission).toBeNull();
        expect(HostMethods.$log.permission).toBeNull();
      }
      if (line.includes('runs hardened')) expect(shown.isolation.mode).toBe('process');
      if (line.includes('in a worker thread of svc')) expect(shown.isolation.mode).toBe('worker');
    } else throw new Error(`a line no check accounts for: ${line}`);
  }
  // What every description says, whatever its state.
  for (const section of ['requested permissions: ', 'granted permissions:   ', 'integration files: ', 'runs as: ', '  enforces:     ', '  not enforced: ']) expect(printed(section), section).toBe(true);
  expect(printed('update to ')).toBe(shown.pending !== undefined);
}

describe.each(['worker', 'process'] as const)('svc ext show of a provider running as a %s', (mode) => {
  test('disabled, enabled, waiting for a confirmation, broken: every sentence holds', async () => {
    const disabledFirst = await show(ECHO);
    expect(disabledFirst.shown.state).toBe('disabled');
    expectEverySentenceTrue(disabledFirst.text, disabledFirst.shown);

    const first = await runInProcess(home, 'ext', 'enable', ECHO, '--yes', '--isolation', mode);
    expect(first.code).toBe(0);
    if (mode === 'worker') expect(first.stdout).toContain('nothing has run yet');
    const enabled = await show(ECHO);
    expect(enabled.shown).toMatchObject({ state: 'enabled', isolation: { mode } });
    expect(enabled.text).toContain('(runs as the provider loads; you confirmed process:spawn)');
    expectEverySentenceTrue(enabled.text, enabled.shown);

    // The folder is edited in place: a new version asking for one more permission.
    const pkgFile = join(echoDir, 'package.json');
    const original = readFileSync(pkgFile, 'utf8');
    const pkg = JSON.parse(original) as { version: string; svc: { permissions: string[] } };
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, version: '1.1.0', svc: { ...pkg.svc, permissions: [...pkg.svc.permissions, 'network:provider'] } }));
    const waiting = await show(ECHO);
    expect(waiting.shown).toMatchObject({ version: '1.1.0', state: 'needs-confirmation', error: { code: 'permissions_changed' } });
    expectEverySentenceTrue(waiting.text, waiting.shown);
    // The list and the statistics speak of the folder's version too, and say a confirmation waits.
    expect((await runInProcess(home, 'ext', 'list')).stdout).toMatch(/^svc-test\.echo +1\.1\.0 +dev +needs-confirmation \(permissions_changed\) /m);
    expect((await runInProcess(home, 'ext', 'stats', ECHO)).stdout).toMatch(/^svc-test\.echo 1\.1\.0 {2}needs-confirmation /);
    const reconfirmed = await runInProcess(home, 'ext', 'enable', ECHO, '--yes');
    expect(reconfirmed.code).toBe(0);
    // Its probe ran under the grant confirmed before: the prompt does not say nothing has run.
    expect(reconfirmed.stdout).toContain('its version probe ran under the grant you confirmed before');
    expect(reconfirmed.stdout).not.toContain('nothing has run yet');
    writeFileSync(pkgFile, original);

    // Broken: its entry is gone, which the next call finds.
    const entry = join(echoDir, 'dist/svc-cli-provider.js');
    const code = readFileSync(entry);
    rmSync(entry);
    expect((await runInProcess(home, 'query', '--provider', ECHO, 'hello')).code).toBe(1);
    const broken = await show(ECHO);
    expect(broken.shown).toMatchObject({ state: 'broken', error: { code: 'entry_missing' } });
    expectEverySentenceTrue(broken.text, broken.shown);
    writeFileSync(entry, code);

    expect((await runInProcess(home, 'ext', 'disable', ECHO)).code).toBe(0);
    const disabled = await show(ECHO);
    expect(disabled.shown).toMatchObject({ state: 'disabled', isolation: { mode } });
    expectEverySentenceTrue(disabled.text, disabled.shown);
  }, 60_000);
});

test('svc ext show of a catalog provider with a staged update names the version and the permissions it adds', async () => {
  const id = 'svc-test.staged';
  const versions = ['1.0.0', '1.1.0'].map((version) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'svc-staged-')), 'package');
    cpSync(echoDir, dir, { recursive: true });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { svc: Record<string, unknown> & { permissions: string[] } };
    const permissions = version === '1.0.0' ? pkg.svc.permissions : [...pkg.svc.permissions, 'network:provider'];
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, name: '@svc-test/svc-provider-staged', version, svc: { ...pkg.svc, id, permissions } }));
    return { version, dir, permissions, command: pkg.svc.command as Manifest['command'] };
  });
  const services = await openHostServices({ env: { ...process.env, SVC_HOME: home }, builtins: false });
  try {
    const { versions: store } = services.registry;
    store.registerCatalog({ id, version: '1.0.0', path: versions[0]!.dir, displayName: 'Staged (test)' });
    for (const v of versions) store.addVersion({ id, version: v.version, path: v.dir, sha256: '0'.repeat(64), size: 1, permissions: v.permissions, treeSha256: await computeTreeDigest(v.dir) });
    services.registry.grantAndEnable(id, versions[0]!.permissions, probeFingerprint({ command: versions[0]!.command }));
    store.setPending(id, '1.1.0', 'needs-confirmation');
  } finally {
    await services.close();
  }
  const staged = await show(id);
  expect(staged.shown).toMatchObject({ source: 'catalog', version: '1.0.0', state: 'needs-confirmation', pending: { version: '1.1.0', newPermissions: ['network:provider'] } });
  expect(staged.text).toContain(`update to 1.1.0 is staged and asks for new permissions: network:provider; 1.0.0 serves until you confirm: svc ext enable ${id}`);
  expectEverySentenceTrue(staged.text, staged.shown);
}, 60_000);
