// A developer provider run hardened (`--isolation process`) reads only its own folder, resolved:
// a symlink in the folder to a file or a folder outside it is refused like the outside path itself,
// and realpath outside the folder answers the same refusal whether the path exists or not.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { probeIsolation } from '@svc-org/host/features/extensions/runtime';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-test.linked';
const SECRET = 'ssh-private-key-material';
let svc: SvcSandbox;
let dir: string;
let packageDir: string;
let outside: string;

// Each attempt answers with what came back, or the error's code; results joined by "|".
const PROVIDER = `
import fs, { readFileSync, realpathSync, statSync, readdirSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const attempt = async (fn) => { try { return String(await fn()); } catch (error) { return error.code ?? error.message; } };
const adapter = {
  buildSessionProcess() { return { command: 'true', args: [], envPatch: {} }; },
  async generate(request) {
    const [pkg, outside] = request.prompt.split(' ');
    const answers = [
      await attempt(() => readFileSync(pkg + '/own.txt', 'utf8')),
      await attempt(() => readFileSync(pkg + '/key-link', 'utf8')),
      await attempt(() => fs.readFileSync(pkg + '/key-link', 'utf8')),
      await attempt(() => readFile(pkg + '/key-link', 'utf8')),
      await attempt(() => require('node:fs').readFileSync(pkg + '/dir-link/id_ed25519', 'utf8')),
      await attempt(() => readdirSync(pkg + '/dir-link').join(',')),
      await attempt(() => statSync(pkg + '/key-link').size),
      await attempt(() => realpathSync(outside + '/id_ed25519')),
      await attempt(() => realpathSync(outside + '/no-such-file')),
      await attempt(() => realpathSync.native(outside + '/id_ed25519')),
      await attempt(() => realpath(outside + '/id_ed25519')),
      await attempt(() => realpath(outside + '/no-such-file')),
    ];
    return { text: answers.join('|'), toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] };
  },
};
export const svcCliPlugin = Object.freeze({ $marker: 'svc.cli-plugin', apiVersion: '1.0', createAdapter: () => adapter });
`;

beforeAll(async () => {
  svc = createSvcSandbox();
  // Real paths: the hardened process is given its package by its real path.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-hardened-links-')));
  outside = join(dir, 'home', '.ssh');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'id_ed25519'), SECRET, { mode: 0o600 });
  packageDir = join(dir, 'linked');
  mkdirSync(packageDir);
  writeFileSync(join(packageDir, 'own.txt'), 'own');
  symlinkSync(join(outside, 'id_ed25519'), join(packageDir, 'key-link'));
  symlinkSync(outside, join(packageDir, 'dir-link'));
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({
      name: '@svc-test/svc-provider-linked',
      version: '1.0.0',
      private: true,
      type: 'module',
      exports: { './svc-cli-provider': './svc-cli-provider.js' },
      svc: {
        id: ID,
        publisher: 'svc-test',
        manifestVersion: 1,
        apiVersion: '1.0',
        kind: 'cli-provider',
        display: { name: 'Linked (test)', description: 'Reads through symlinks out of its folder' },
        command: { default: 'svc-echo-cli', aliases: [], knownPaths: {}, versionArgs: ['--version'] },
        compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
        capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: false }, models: false },
        permissions: [],
      },
    }),
  );
  writeFileSync(join(packageDir, 'svc-cli-provider.js'), PROVIDER);
  expect((await svc.run(['ext', 'dev', 'add', packageDir])).code).toBe(0);
  const enabled = await svc.run(['ext', 'enable', ID, '--yes', '--isolation', 'process']);
  expect(enabled.code, enabled.stderr).toBe(0);
});

afterAll(() => {
  svc?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('symlinks out of the folder and realpath outside it are refused alike, existing or not', async () => {
  const result = await svc.run(['query', '--provider', ID, `${packageDir} ${outside}`]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).not.toContain(SECRET);
  expect(result.stdout).not.toContain(outside);
  // Where the provider runs in its own read-only root (a mount namespace, probed), a link's target
  // outside the package is not in its world at all (ENOENT, for an existing target too); elsewhere
  // the read is refused. realpath outside the package is refused either way, existing or not.
  const probe = probeIsolation();
  const linkRead = probe.namespaces && probe.providerRoot ? 'ENOENT' : 'ERR_ACCESS_DENIED';
  expect(result.stdout.trim().split('|')).toEqual([
    'own',
    ...Array.from({ length: 6 }, () => linkRead),
    ...Array.from({ length: 5 }, () => 'ERR_ACCESS_DENIED'),
  ]);
});
