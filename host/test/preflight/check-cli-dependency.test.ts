import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseCliVersion, runPreflight, type CommandAttempt } from '../../src/features/extensions/preflight/index.js';
import { expectPreflightFailure } from './expect-preflight-failure.js';
import { createFixturePackage, RECORDED_VERSIONS, type FixturePackage } from './fixture-package.js';

let fixture: FixturePackage;
beforeEach(async () => {
  fixture = await createFixturePackage();
});
afterEach(async () => {
  await fixture.cleanup();
});

const recorded = (name: string) => readFile(join(RECORDED_VERSIONS, name), 'utf8');

/** Gone or a zombie: a killed process whose parent has not reaped it yet no longer runs. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    if (process.platform === 'linux') return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('parseCliVersion', () => {
  test('reads the version from the recorded output of each real CLI', async () => {
    expect(parseCliVersion(await recorded('qwen-code-0.24.4.stdout'))).toBe('0.24.4');
    expect(parseCliVersion(await recorded('claude-code-2.1.197.stdout'))).toBe('2.1.197');
    expect(parseCliVersion(await recorded('codex-0.169.0.stdout'))).toBe('0.169.0');
    expect(parseCliVersion(await recorded('gemini-cli-0.61.0.stdout'))).toBe('0.61.0');
  });

  test('reads v-prefixed and prerelease versions and skips text without one', () => {
    expect(parseCliVersion('v1.2.3\n')).toBe('1.2.3');
    expect(parseCliVersion('gemini 0.6.0-nightly.20250912.abc123 (build 7)')).toBe('0.6.0-nightly.20250912.abc123');
    expect(parseCliVersion('usage: tool [options]\n')).toBeUndefined();
    expect(parseCliVersion('')).toBeUndefined();
  });
});

describe('checkCliDependency discovery', () => {
  test('uses command.default on PATH and returns its absolute path and version', async () => {
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.ok).toBe(true);
    expect(report.cli).toEqual({ command: join(fixture.root, 'bin/sample-cli'), version: '0.24.4', source: 'default' });
    expect(existsSync(fixture.marker)).toBe(false);
  });

  test('prefers the connection override given as an absolute path', async () => {
    const override = await fixture.replayCli('opt/gemini', 'gemini', 'gemini-cli-0.61.0.stdout');
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: override }));
    expect(report.cli).toEqual({ command: override, version: '0.61.0', source: 'override' });
  });

  test('looks an override given as a name up on PATH', async () => {
    const override = await fixture.replayCli('bin', 'codex', 'codex-0.169.0.stdout');
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: 'codex' }));
    expect(report.cli).toEqual({ command: override, version: '0.169.0', source: 'override' });
  });

  test('an override that does not exist fails with cli_not_found naming it, never falling back to PATH', async () => {
    // sample-cli is on PATH and would answer: the override must not be silently replaced by it.
    const override = join(fixture.root, 'nowhere/qwen');
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: override }));
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_not_found');
    expect(failure.message).toBe(`the command override ${override} was not found or is not an executable file`);
    expect(failure.details).toEqual({ override, tried: [{ source: 'override', candidate: override, looked: [override] }] });
    expect(report.cli).toBeUndefined();
  });

  test('uses an alias when the default name is not on PATH', async () => {
    const alias = await fixture.replayCli('alias-bin', 'sample-cli-alias', 'qwen-code-0.24.4.stdout');
    const report = await runPreflight(fixture.dir, fixture.options({ env: { PATH: join(fixture.root, 'alias-bin') } }));
    expect(report.cli).toEqual({ command: alias, version: '0.24.4', source: 'alias' });
  });

  test('uses knownPaths for the platform, expanding a leading ~ to the home folder', async () => {
    await fixture.replayCli('home/.sample/bin', 'sample-cli', 'qwen-code-0.24.4.stdout');
    const report = await runPreflight(fixture.dir, fixture.options({ env: { PATH: join(fixture.root, 'empty') } }));
    expect(report.cli).toEqual({ command: join(fixture.home, '.sample/bin/sample-cli'), version: '0.24.4', source: 'known-path' });
  });

  test('skips a file on PATH that is not executable', async () => {
    await fixture.write('../first/sample-cli', '#!/bin/sh\necho 9.9.9\n');
    const report = await runPreflight(fixture.dir, fixture.options({ env: { PATH: `${join(fixture.root, 'first')}:${join(fixture.root, 'bin')}` } }));
    expect(report.cli?.command).toBe(join(fixture.root, 'bin/sample-cli'));
  });

  test('never resolves a name through an empty or relative PATH entry', async () => {
    const report = await runPreflight(fixture.dir, {
      ...fixture.options({ env: { PATH: ':bin:.' } }),
    });
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_not_found');
    const tried = failure.details?.tried as CommandAttempt[];
    expect(tried.flatMap((attempt) => attempt.looked)).toEqual([join(fixture.home, '.sample/bin/sample-cli')]);
  });

  test('probes a real CLI that prints a v-prefixed version (node --version)', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.compatibility.cli = '>=20';
    });
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: process.execPath }));
    expect(report.cli).toEqual({ command: process.execPath, version: process.versions.node, source: 'override' });
  });
});

describe('checkCliDependency failures', () => {
  test('fails with cli_not_found and lists every place it looked', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ env: { PATH: join(fixture.root, 'empty') } }));
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_not_found');
    expect(failure.message).toBe('the Sample CLI was not found (looked for sample-cli, sample-cli-alias, ~/.sample/bin/sample-cli)');
    expect(failure.details?.tried).toEqual([
      { source: 'default', candidate: 'sample-cli', looked: [join(fixture.root, 'empty/sample-cli')] },
      { source: 'alias', candidate: 'sample-cli-alias', looked: [join(fixture.root, 'empty/sample-cli-alias')] },
      { source: 'known-path', candidate: '~/.sample/bin/sample-cli', looked: [join(fixture.home, '.sample/bin/sample-cli')] },
    ]);
    expect(failure.fix).toBe("Install the CLI so `sample-cli` is on PATH, or set the connection's command override to its absolute path");
  });

  test('fails with cli_probe_failed when the version probe exits non-zero', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: '/bin/false' }));
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_probe_failed');
    expect(failure.message).toBe('`/bin/false --version` exited with code 1');
    expect(failure.details).toMatchObject({ command: '/bin/false', exitCode: 1 });
    expect(failure.fix).toBe('Run `/bin/false --version` yourself to see why it fails, then repair the CLI install or set the command override');
  });

  test('fails with cli_probe_failed when the CLI cannot be started', async () => {
    const broken = await fixture.script('bin', 'sample-cli', '');
    await writeFile(broken, '#!/nonexistent/interpreter\n');
    await chmod(broken, 0o755);
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_probe_failed');
    expect(failure.message).toBe(`\`${broken} --version\` could not start (ENOENT)`);
  });

  test('fails with cli_probe_timeout and kills the hanging probe with its children', async () => {
    const pids = join(fixture.root, 'probe.pids');
    await fixture.script('bin', 'sample-cli', `echo $$ > '${pids}'\n/bin/sleep 30 &\necho $! >> '${pids}'\nwait`);
    const started = Date.now();
    const report = await runPreflight(fixture.dir, fixture.options({ probeTimeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_probe_timeout');
    expect(failure.message).toBe(`\`${join(fixture.root, 'bin/sample-cli')} --version\` did not finish within 300 ms and was killed`);

    const [shell, sleeper] = (await readFile(pids, 'utf8')).trim().split('\n').map(Number);
    await expect.poll(async () => (await isRunning(shell!)) || (await isRunning(sleeper!)), { timeout: 2_000 }).toBe(false);
  });

  test('fails with cli_version_unreadable when the probe prints no version', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ commandOverride: '/bin/true' }));
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_version_unreadable');
    expect(failure.message).toBe('`/bin/true --version` printed no version number');
    expect(failure.fix).toBe('Check that /bin/true is the Sample CLI CLI: `/bin/true --version` should print a version such as 1.2.3');
  });

  test('fails with cli_incompatible when the CLI version is outside compatibility.cli', async () => {
    const claude = await fixture.replayCli('bin', 'sample-cli', 'claude-code-2.1.197.stdout');
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'cli_incompatible');
    expect(failure.message).toBe(`${claude} is version 2.1.197; acme.sample needs >=0.18.0 <1.0.0`);
    expect(failure.details).toMatchObject({ version: '2.1.197', range: '>=0.18.0 <1.0.0' });
    expect(failure.fix).toBe('Install a version of `sample-cli` in >=0.18.0 <1.0.0, or a version of acme.sample that supports 2.1.197');
  });

  test('skips the range check when the manifest sets no compatibility.cli', async () => {
    await fixture.replayCli('bin', 'sample-cli', 'claude-code-2.1.197.stdout');
    await fixture.editPackageJson((pkg) => {
      delete pkg.svc.compatibility.cli;
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.ok).toBe(true);
    expect(report.cli?.version).toBe('2.1.197');
  });

  test('fails with manifest_invalid when compatibility.cli is not a semver range, before probing', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.compatibility.cli = 'recent';
    });
    const report = await runPreflight(fixture.dir, fixture.options({ env: { PATH: join(fixture.root, 'empty') } }));
    const failure = expectPreflightFailure(fixture, report, 'cli-dependency', 'manifest_invalid');
    expect(failure.fix).toBe('Write "svc.compatibility.cli" as a semver range, for example ">=0.18.0 <1.0.0"');
  });
});

describe('before consent nothing the manifest names runs', () => {
  test('by default preflight only resolves the executable: a probe that would leave a file leaves none', async () => {
    const touched = join(fixture.root, 'probe-ran');
    await fixture.editPackageJson((pkg) => {
      pkg.svc.command.knownPaths = { [process.platform]: ['/bin/sh'] };
      pkg.svc.command.default = 'not-on-path-anywhere';
      pkg.svc.command.aliases = [];
      pkg.svc.command.versionArgs = ['-c', `: > ${touched}; echo 1.0.0`];
      delete pkg.svc.compatibility.cli;
    });
    const { cliProbe: _run, ...resolveOnly } = fixture.options();
    const report = await runPreflight(fixture.dir, { ...resolveOnly, mode: 'all' });
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.cli).toEqual({ command: '/bin/sh', source: 'known-path' });
    expect(existsSync(touched)).toBe(false);

    // The same package with the probe asked for: the file appears, so its absence above means something.
    const probed = await runPreflight(fixture.dir, fixture.options({ cliProbe: 'run' }));
    expect(probed.cli).toEqual({ command: '/bin/sh', source: 'known-path', version: '1.0.0' });
    expect(existsSync(touched)).toBe(true);
  });

  test('the probe gets exactly the environment it is given', async () => {
    const dump = join(fixture.root, 'probe-env');
    await fixture.editPackageJson((pkg) => {
      pkg.svc.command.versionArgs = ['-c', `env > ${dump}; echo 1.0.0`];
      delete pkg.svc.compatibility.cli;
    });
    await runPreflight(fixture.dir, fixture.options({ commandOverride: '/bin/sh', env: { PATH: '/usr/bin:/bin', ONLY_THIS: 'yes' } }));
    const seen = (await readFile(dump, 'utf8')).split('\n').filter((line) => /^[A-Z_]+=/.test(line) && !/^(PWD|SHLVL|_)=/.test(line));
    expect(seen.sort()).toEqual(['ONLY_THIS=yes', 'PATH=/usr/bin:/bin']);
  });
});
