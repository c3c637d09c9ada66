// What a publisher's commands write, and where: `svc ext pack` leaves hidden files under dist/ out of
// the public artifact (and says which), never writes through a symbolic link at an output name, and
// `svc catalog keygen` finds the repository a symlinked folder leads into and writes no key file
// through a link.
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo, REPO_ROOT } from '@svc-org/catalog/test/make-fixture-repo';

const run = promisify(execFile);
const SVC = join(REPO_ROOT, 'host/bin/svc.mjs');
const SECRET = 'NPM_TOKEN=npm_do_not_publish';

let scratch: string;
let providerDir: string;

async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC, ...args], { cwd: scratch, env: { ...process.env, SVC_HOME: join(scratch, 'home'), NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const exists = (path: string) => lstat(path).then(() => true, () => false);

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-publisher-outputs-'));
  const root = join(scratch, 'repo');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
  providerDir = join(root, 'extensions/cli-providers/alpha');
  await run(process.execPath, [BUILD_PROVIDER_SCRIPT, providerDir]);
  await writeFile(join(providerDir, 'dist/.env'), `${SECRET}\n`);
  await writeFile(join(providerDir, 'dist/.npmrc'), `//registry.npmjs.org/:_authToken=${SECRET}\n`);
  await mkdir(join(providerDir, 'dist/.git'));
  await writeFile(join(providerDir, 'dist/.git/config'), `[remote "origin"]\n\turl = https://user:${SECRET}@example.invalid/r.git\n`);
}, 120_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('svc ext pack', () => {
  test('leaves hidden files under dist/ out of the artifact and names them', async () => {
    const packed = await svc(['ext', 'pack', providerDir, '--out', join(scratch, 'packed'), '--json']);
    expect(packed.code, packed.stderr).toBe(0);
    const result = JSON.parse(packed.stdout) as { artifact: string; leftOut: string[] };
    expect(result.leftOut).toEqual(['dist/.env', 'dist/.git/', 'dist/.npmrc']);
    const tar = gunzipSync(await readFile(result.artifact)).toString('latin1');
    expect(tar).not.toContain(SECRET);
    expect(tar).not.toContain('package/dist/.env');
    expect(tar).toContain('package/dist/svc-cli-provider.js');
    const text = await svc(['ext', 'pack', providerDir, '--out', join(scratch, 'packed-text')]);
    expect(text.stdout).toContain('left out (hidden files are never packed): dist/.env, dist/.git/, dist/.npmrc');
  });

  test('refuses to write through a symbolic link at an output name, and changes its target not at all', async () => {
    const out = join(scratch, 'linked-out');
    await mkdir(out);
    const target = join(scratch, 'victim.txt');
    await writeFile(target, 'keep me\n');
    await symlink(target, join(out, 'acme.alpha-1.0.0.tgz'));
    const packed = await svc(['ext', 'pack', providerDir, '--out', out]);
    expect(packed.code).not.toBe(0);
    expect(packed.stderr).toContain('catalog_output_is_link');
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
    expect((await readdir(out)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('svc catalog keygen', () => {
  test('a path through a symbolic link into a git repository is inside that repository', async () => {
    const repo = join(scratch, 'other-repo');
    await mkdir(join(repo, '.git'), { recursive: true });
    await mkdir(join(repo, 'keys'));
    await mkdir(join(scratch, 'elsewhere'));
    await symlink(join(repo, 'keys'), join(scratch, 'elsewhere', 'keys'));
    const made = await svc(['catalog', 'keygen', '--out', join(scratch, 'elsewhere', 'keys', 'main')]);
    expect(made.code).not.toBe(0);
    expect(made.stderr).toContain('catalog_signing_key_in_repository');
    expect(await readdir(join(repo, 'keys'))).toEqual([]);
  });

  test('a .pub that is a symbolic link is refused, its target unchanged and no private key left behind', async () => {
    const keys = join(scratch, 'keys');
    await mkdir(keys);
    const target = join(scratch, 'authorized_keys');
    await writeFile(target, 'ssh-ed25519 AAAA person\n');
    await symlink(target, join(keys, 'main.pub'));
    const made = await svc(['catalog', 'keygen', '--out', join(keys, 'main')]);
    expect(made.code).not.toBe(0);
    expect(made.stderr).toContain('catalog_key_file_exists');
    expect(await readFile(target, 'utf8')).toBe('ssh-ed25519 AAAA person\n');
    expect(await exists(join(keys, 'main.key'))).toBe(false);
  });
});
