import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCatalog } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo } from './make-fixture-repo.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-checks-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// Each script appends its name to steps.log, so the test sees what ran and in which order.
function scripts(failing?: string): Record<string, string> {
  const step = (name: string) => `node -e "require('fs').appendFileSync('steps.log','${name}\\\\n');process.exit(${failing === name ? 3 : 0})"`;
  return { typecheck: step('typecheck'), test: step('test'), postinstall: step('postinstall') };
}

test('runs the provider typecheck and tests before packing it', async () => {
  const root = join(scratch, 'ok');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', extraPackageFields: { scripts: scripts() } }]);
  const { artifacts } = await buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir: join(scratch, 'ok-out'), buildProviderScript: BUILD_PROVIDER_SCRIPT });
  expect(await readFile(join(root, 'extensions/cli-providers/alpha/steps.log'), 'utf8')).toBe('typecheck\ntest\n');
  expect(artifacts).toHaveLength(1);
});

test.each(['typecheck', 'test'])('refuses to publish a provider whose %s fails', async (failing) => {
  const root = join(scratch, `fail-${failing}`);
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', extraPackageFields: { scripts: scripts(failing) } }]);
  const outputDir = join(scratch, `fail-${failing}-out`);
  await expect(buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir, buildProviderScript: BUILD_PROVIDER_SCRIPT })).rejects.toMatchObject({
    code: 'catalog_provider_check_failed',
    details: { step: failing, exitCode: 3 },
  });
  await expect(readFile(join(outputDir, 'index.v1.json'))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('refuses a provider whose source does not build', async () => {
  const root = join(scratch, 'no-build');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', extraFiles: { 'src/index.ts': 'export const = ;\n' } }]);
  await expect(
    buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir: join(scratch, 'no-build-out'), buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true }),
  ).rejects.toMatchObject({ code: 'catalog_provider_check_failed', details: { step: 'build' } });
});
