// `svc ext new --dir extensions/cli-providers` inside an svc repository makes what the official
// providers there are: a workspace package (workspace SDK, the shared build script, the repository's
// vitest, a tsconfig extending the base), no lockfile, .npmrc or .gitignore of its own, and its entry in
// the repository's pnpm-lock.yaml so that the one printed command, `pnpm install --offline`, needs no
// registry metadata. The repository is a copy of this one's workspace manifests in a temporary folder.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';

let repo: string;
let svc: SvcSandbox;

function copy(relative: string): void {
  mkdirSync(dirname(join(repo, relative)), { recursive: true });
  copyFileSync(join(REPO_ROOT, relative), join(repo, relative));
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'svc-ws-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml', 'tsconfig.base.json', 'scripts/build-provider.mjs', 'sdk/package.json', 'web/package.json']) copy(file);
  for (const name of readdirSync(join(REPO_ROOT, 'extensions/cli-providers'))) copy(`extensions/cli-providers/${name}/package.json`);
  svc = createSvcSandbox();
});
afterAll(() => {
  svc.cleanup();
  rmSync(repo, { recursive: true, force: true });
});

test('inside an svc repository, the scaffold is a workspace package recorded in the repository lockfile', async () => {
  const lockBefore = readFileSync(join(repo, 'pnpm-lock.yaml'), 'utf8');
  const result = await svc.run(['ext', 'new', 'demo-ws', '--dir', join(repo, 'extensions/cli-providers')]);
  expect(result.code, result.stderr).toBe(0);
  const dir = join(repo, 'extensions/cli-providers/demo-ws');

  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
  expect(files).toEqual(['README.md', 'config.schema.json', 'package.json', 'src/demo-ws-adapter.ts', 'src/index.ts', 'test/demo-ws-adapter.test.ts', 'tsconfig.json']);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const official = JSON.parse(readFileSync(join(REPO_ROOT, 'extensions/cli-providers/qwen-code/package.json'), 'utf8'));
  expect(pkg.devDependencies).toEqual({ '@svc-org/ai-sdk': 'workspace:*' });
  expect(pkg.scripts).toEqual({
    build: official.scripts.build,
    typecheck: official.scripts.typecheck,
    test: official.scripts.test.replace('qwen-code', 'demo-ws'),
  });
  expect(JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(join(REPO_ROOT, 'extensions/cli-providers/qwen-code/tsconfig.json'), 'utf8')));

  // The entry pnpm itself writes for such a package, in its sorted place; nothing else changed.
  const lockAfter = readFileSync(join(repo, 'pnpm-lock.yaml'), 'utf8');
  const entry = "  extensions/cli-providers/demo-ws:\n    devDependencies:\n      '@svc-org/ai-sdk':\n        specifier: workspace:*\n        version: link:../../../sdk\n\n";
  expect(lockAfter.replace(entry, '')).toBe(lockBefore);
  expect(lockAfter.indexOf('  extensions/cli-providers/demo-ws:')).toBeGreaterThan(lockAfter.indexOf('  extensions/cli-providers/codex:'));
  expect(lockAfter.indexOf('  extensions/cli-providers/demo-ws:')).toBeLessThan(lockAfter.indexOf('  extensions/cli-providers/gemini-cli:'));

  expect(result.stdout).toContain(`next steps:\n  cd ${repo}\n  pnpm install --offline\n  pnpm --dir extensions/cli-providers/demo-ws build\n`);
  expect(result.stdout).toContain('its entry was added to pnpm-lock.yaml: run `pnpm install --offline` at the repository root once');

  // pnpm agrees that the lockfile is complete: a frozen install resolves nothing.
  const check = spawnSync('pnpm', ['install', '--offline', '--frozen-lockfile', '--lockfile-only'], { cwd: repo, encoding: 'utf8', env: { ...process.env, npm_config_cache_dir: join(repo, '.empty-cache') } });
  expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
  expect(readFileSync(join(repo, 'pnpm-lock.yaml'), 'utf8')).toBe(lockAfter);
}, 120_000);

test('elsewhere, the scaffold stays a stand-alone package with its own lockfile', async () => {
  const result = await svc.run(['ext', 'new', 'demo-alone', '--dir', join(repo, 'extensions')]);
  expect(result.code, result.stderr).toBe(0);
  expect(existsSync(join(repo, 'extensions/demo-alone/pnpm-lock.yaml'))).toBe(true);
  expect(JSON.parse(readFileSync(join(repo, 'extensions/demo-alone/package.json'), 'utf8')).devDependencies['@svc-org/ai-sdk']).toBe(`link:${join(REPO_ROOT, 'sdk')}`);
});
