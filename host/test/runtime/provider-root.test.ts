// The read-only root a hardened provider process starts in is set up at every launch, so its script
// starts as few programs as it can: one `mkdir` and two `mount`s (the bind and its read-only remount)
// per path it binds, a symlink copied by one `cp -P`, and no `dirname`, `readlink` or `ln` per path.
// What the root guarantees stays: only the bound paths are there, each read-only, the merged-/usr
// symlinks are symlinks, and nothing can be written anywhere in it. Real `unshare`, `mount` and `sh`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isolationEnforcement, probeIsolation } from '../../src/features/extensions/runtime/index.js';
import { providerRootArgs, providerRootMountPoint } from '../../src/features/extensions/runtime/provider-root.js';

const probe = probeIsolation();
const PROGRAMS = ['mount', 'mkdir', 'cp', 'dirname', 'readlink', 'ln', 'chroot'];
let dir: string;
let shims: string;
let log: string;
let packageDir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-provider-root-')));
  shims = join(dir, 'shims');
  log = join(dir, 'started.log');
  mkdirSync(shims);
  // Each program the script starts by name is logged, then run for real.
  for (const name of PROGRAMS) {
    const real = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(shims, name), `#!/bin/sh\necho ${name} >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(shims, name), 0o755);
  }
  packageDir = join(dir, 'provider', 'package');
  mkdirSync(packageDir, { recursive: true });
  writeFileSync(join(packageDir, 'index.js'), 'export {};\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `sh -c script` inside the provider root set up for `packageDir`, with the shims first on PATH. */
function insideRoot(script: string): { status: number | null; stdout: string; started: string[] } {
  writeFileSync(log, '');
  const node = realpathSync(process.execPath);
  const args = ['-rnpm', '--fork', '--kill-child=SIGKILL', ...providerRootArgs(providerRootMountPoint(), [node, packageDir], ['/bin/sh', '-c', script])];
  const run = spawnSync('unshare', args, { encoding: 'utf8', env: { PATH: `${shims}:/usr/sbin:/usr/bin:/sbin:/bin` } });
  return { status: run.status, stdout: run.stdout, started: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

test('the root is set up with one mkdir and two mounts per bound path and no helper program per path, and stays read-only', () => {
  if (!probe.namespaces || !probe.providerRoot) {
    // Where the machine allows no such root, the hardened mode says it does not enforce it.
    expect(isolationEnforcement('process', probe, 64).notEnforced).toContain('Unix sockets and socket files not isolated');
    return;
  }
  const run = insideRoot(
    [
      `cat '${packageDir}/index.js'`,
      `if (: > '${packageDir}/dropped.js') 2>/dev/null; then echo wrote-package; fi`,
      'if (: > /dropped) 2>/dev/null; then echo wrote-root; fi',
      '[ -L /lib ] && echo lib-is-link',
      `[ -e '${dir}/shims' ] && echo host-visible`,
      'echo done',
    ].join('; '),
  );
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('export {};');
  expect(run.stdout).toContain('done');
  expect(run.stdout).not.toContain('wrote-package');
  expect(run.stdout).not.toContain('wrote-root');
  expect(run.stdout).not.toContain('host-visible');
  if (spawnSync('sh', ['-c', '[ -L /lib ]']).status === 0) expect(run.stdout).toContain('lib-is-link');

  const count = (name: string) => run.started.filter((started) => started === name).length;
  expect(count('dirname') + count('readlink') + count('ln')).toBe(0);
  // The tmpfs, its read-only remount and /proc, then a bind and its remount per bound path.
  const bound = (count('mount') - 3) / 2;
  expect(bound).toBeGreaterThanOrEqual(3);
  expect(count('mkdir')).toBeLessThanOrEqual(bound);
  expect(count('chroot')).toBe(1);
});
