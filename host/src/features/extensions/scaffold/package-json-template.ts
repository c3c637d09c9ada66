// package.json of a scaffold: the full `svc` manifest, scripts, and dev dependencies that resolve on
// this machine without a network (the SDK as a link to this checkout; the tools at svc's own versions).
import type { ManifestInput } from '@svc-org/ai-sdk';
import type { SvcCheckout } from './locate-svc-checkout.js';
import type { ScaffoldNames } from './scaffold-names.js';

export const SDK_PACKAGE_NAME = '@svc-org/ai-sdk';

/** Contract v1: until a standalone SDK is published, providers reference its source and bundle it. */
export function sdkSpecifier(checkout: SvcCheckout): string {
  return `link:${checkout.sdkDir}`;
}

// One esbuild command, no build script file: the SDK is bundled in, so the entry imports only node: builtins.
const BUILD_SCRIPT =
  'esbuild src/index.ts --bundle --platform=node --format=esm --target=node20 --legal-comments=none --log-level=warning --outfile=dist/svc-cli-provider.js';

/** The `svc` manifest of a new provider, the same in both homes of a scaffold. */
export function manifestTemplate(names: ScaffoldNames): ManifestInput {
  return {
    id: names.id,
    publisher: names.publisher,
    manifestVersion: 1,
    apiVersion: '1.0',
    kind: 'cli-provider',
    display: { name: names.displayName, description: `Terminal sessions and headless queries with the ${names.command} CLI` },
    command: { default: names.command, aliases: [], knownPaths: {}, versionArgs: ['--version'] },
    compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
    capabilities: {
      sessions: { fresh: true, resume: true },
      query: { generate: true, stream: true },
      models: false,
    },
    permissions: ['process:spawn'],
    configSchema: 'config.schema.json',
  };
}

export function packageJsonTemplate(names: ScaffoldNames, checkout: SvcCheckout): string {
  const svc = manifestTemplate(names);
  const pkg = {
    name: names.packageName,
    version: '0.1.0',
    private: true,
    description: `svc provider for the ${names.command} command-line tool`,
    type: 'module',
    exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
    files: ['dist', 'config.schema.json'],
    scripts: {
      build: BUILD_SCRIPT,
      test: 'vitest run',
      typecheck: 'tsc -p tsconfig.json --noEmit',
    },
    devDependencies: {
      [SDK_PACKAGE_NAME]: sdkSpecifier(checkout),
      '@types/node': checkout.toolVersions['@types/node'],
      esbuild: checkout.toolVersions.esbuild,
      typescript: checkout.toolVersions.typescript,
      vitest: checkout.toolVersions.vitest,
    },
    // esbuild's install script only checks its binary; allowing it keeps pnpm 10 from warning.
    pnpm: { onlyBuiltDependencies: ['esbuild'] },
    svc,
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
