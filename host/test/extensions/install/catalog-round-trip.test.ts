// The building blocks together, as the install command will chain them: build a catalog from a fixture
// provider, publish its output folder over HTTPS, fetch the index, download the artifact it names,
// extract it into staging.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCatalog } from '@svc-org/catalog';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo } from '@svc-org/catalog/test/make-fixture-repo';
import { downloadArtifact, extractArtifact, fetchCatalogIndex } from '../../../src/features/extensions/install/index.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from '../../../../test/support/throwaway-https.js';

let scratch: string;
let ca: ThrowawayCa;
let server: HttpsTestServer;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-round-trip-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  const published = join(scratch, 'published');
  server = await startHttpsServer(ca, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    const file = normalize(join(published, path.replace(/^\/svc\/catalog\//, '')));
    readFile(file).then(
      (body) => response.end(body),
      () => {
        response.statusCode = 404;
        response.end();
      },
    );
  });
  const root = join(scratch, 'repo');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '2.0.0' }]);
  await buildCatalog({ root, baseUrl: `${server.origin}/svc/catalog`, outputDir: published, buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true });
});

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('an artifact built by the catalog installs through fetch, download and extract', async () => {
  const index = await fetchCatalogIndex(`${server.origin}/svc/catalog/index.v1.json`, { ca: ca.caCert });
  const version = index.extensions.find((extension) => extension.id === 'acme.alpha')!.versions[0]!;
  expect(version.version).toBe('2.0.0');
  const destFile = join(scratch, 'alpha.tgz');
  await downloadArtifact(version.artifact.url, { sha256: version.artifact.sha256, size: version.artifact.size, destFile, ca: ca.caCert });
  const staging = join(scratch, 'staging');
  const inspection = await extractArtifact(destFile, staging, { sha256: version.artifact.sha256 });
  expect(inspection.entries.map((entry) => entry.path)).toEqual(['config.schema.json', 'dist/svc-cli-provider.js', 'package.json']);
  const pkg = JSON.parse(await readFile(join(staging, 'package.json'), 'utf8')) as { svc: { id: string; permissions: string[] } };
  expect(pkg.svc.id).toBe('acme.alpha');
  expect(pkg.svc.permissions).toEqual(version.permissions);
  expect(await readFile(join(staging, 'dist/svc-cli-provider.js'), 'utf8')).toContain('svcCliPlugin');
});
