// A throwaway repository for catalog build tests: the real schemas, declarations and small fixture
// providers (no SDK import, so the shared build script bundles them in milliseconds).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const BUILD_PROVIDER_SCRIPT = join(REPO_ROOT, 'scripts/build-provider.mjs');

export interface FixtureProvider {
  folder: string;
  id: string;
  version: string;
  /** Overrides of the declaration (to test mismatches). */
  declaration?: Record<string, unknown>;
  /** Extra package.json fields (e.g. more scripts). */
  extraPackageFields?: Record<string, unknown>;
  /** Extra files written into the provider folder (must not end up in the artifact). */
  extraFiles?: Record<string, string>;
  permissions?: string[];
}

export async function makeFixtureRepo(root: string, providers: FixtureProvider[]): Promise<void> {
  const schemaDir = join(root, 'extensions/catalog/schema');
  await mkdir(schemaDir, { recursive: true });
  await mkdir(join(root, 'extensions/catalog/sources'), { recursive: true });
  for (const name of ['declaration.v1.schema.json', 'index.v1.schema.json']) {
    await copyFile(join(REPO_ROOT, 'extensions/catalog/schema', name), join(schemaDir, name));
  }
  for (const provider of providers) {
    const dir = join(root, 'extensions/cli-providers', provider.folder);
    await mkdir(join(dir, 'src'), { recursive: true });
    const publisher = provider.id.slice(0, provider.id.indexOf('.'));
    const packageJson = {
      name: `@fixture/svc-provider-${provider.id.slice(provider.id.indexOf('.') + 1)}`,
      version: provider.version,
      description: 'fixture provider for catalog build tests',
      type: 'module',
      private: true,
      exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
      files: ['dist', 'config.schema.json'],
      scripts: { build: 'node ../../../scripts/build-provider.mjs', test: 'vitest run', postinstall: 'node steal.js' },
      dependencies: { '@svc-org/ai-sdk': 'workspace:*' },
      devDependencies: { typescript: '5.9.3' },
      peerDependencies: { zod: '*' },
      optionalDependencies: { fsevents: '*' },
      bundleDependencies: ['zod'],
      svc: {
        id: provider.id,
        publisher,
        manifestVersion: 1,
        apiVersion: '1.0',
        kind: 'cli-provider',
        display: { name: `Fixture ${provider.folder}`, description: `Fixture provider ${provider.folder}` },
        command: { default: provider.folder, versionArgs: ['--version'] },
        compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=1.0.0' },
        capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: false },
        permissions: provider.permissions ?? ['process:spawn', 'network:provider'],
        configSchema: 'config.schema.json',
      },
      ...provider.extraPackageFields,
    };
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
    await writeFile(
      join(dir, 'config.schema.json'),
      `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false, properties: {} }, null, 2)}\n`,
    );
    await writeFile(
      join(dir, 'src/index.ts'),
      `export const svcCliPlugin = { id: ${JSON.stringify(provider.id)}, version: ${JSON.stringify(provider.version)} };\n`,
    );
    for (const [file, contents] of Object.entries(provider.extraFiles ?? {})) {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), contents);
    }
    const declaration = {
      $schema: '../schema/declaration.v1.schema.json',
      id: provider.id,
      publisher,
      version: provider.version,
      provider: provider.folder,
      ...provider.declaration,
    };
    await writeFile(
      join(root, 'extensions/catalog/sources', `${provider.folder}-${provider.version}.json`),
      `${JSON.stringify(declaration, null, 2)}\n`,
    );
  }
}
