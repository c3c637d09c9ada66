// The files of a scaffold made inside an svc repository's extensions/cli-providers/: what the official
// providers there have — the workspace SDK, the shared build script and the repository's vitest, a
// tsconfig that extends the base — and no lockfile, .npmrc or .gitignore of its own (the repository's
// serve it).
import type { ManifestInput } from '@svc-org/ai-sdk';
import { adapterTemplate } from './adapter-template.js';
import { adapterTestTemplate } from './adapter-test-template.js';
import { configSchemaTemplate } from './config-schema-template.js';
import { entryTemplate } from './entry-template.js';
import { PROVIDERS_FOLDER } from './find-provider-workspace.js';
import { manifestTemplate, SDK_PACKAGE_NAME } from './package-json-template.js';
import type { ScaffoldNames } from './scaffold-names.js';

/** The one command that records the new package in the repository's pnpm-lock.yaml (no network needed). */
export const WORKSPACE_LOCKFILE_COMMAND = 'pnpm install --offline';

export function workspaceScaffoldFiles(names: ScaffoldNames, folder: string): Record<string, string> {
  const svc: ManifestInput = manifestTemplate(names);
  const pkg = {
    name: names.packageName,
    version: '0.1.0',
    private: true,
    description: `svc provider for the ${names.command} command-line tool`,
    type: 'module',
    exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
    files: ['dist', 'config.schema.json'],
    scripts: {
      build: 'node ../../../scripts/build-provider.mjs .',
      typecheck: 'tsc -p tsconfig.json',
      test: `vitest run --root ../../.. ${PROVIDERS_FOLDER}/${folder}`,
    },
    devDependencies: { [SDK_PACKAGE_NAME]: 'workspace:*' },
    svc,
  };
  const tsconfig = { extends: '../../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['src', 'test'] };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'config.schema.json': configSchemaTemplate(),
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    'README.md': workspaceReadme(names, folder),
    'src/index.ts': entryTemplate(names),
    [`src/${names.adapterModule}.ts`]: adapterTemplate(names),
    [`test/${names.adapterModule}.test.ts`]: adapterTestTemplate(names),
  };
}

function workspaceReadme(names: ScaffoldNames, folder: string): string {
  const { id, command, adapterModule, packageName } = names;
  return `# ${packageName}

An svc provider for the \`${command}\` command-line tool, in this repository beside the official
providers. It was made with \`svc ext new\` and works as it is with a CLI that takes \`--prompt\` and
prints plain text; adapt \`src/${adapterModule}.ts\` (the \`ADAPT\` comments) to the real \`${command}\`.

## Build and test

\`\`\`sh
# once, at the repository root: records this package in pnpm-lock.yaml (no network needed)
${WORKSPACE_LOCKFILE_COMMAND}
pnpm --dir ${PROVIDERS_FOLDER}/${folder} build
pnpm --dir ${PROVIDERS_FOLDER}/${folder} test
pnpm --dir ${PROVIDERS_FOLDER}/${folder} typecheck
\`\`\`

## Use it in svc, and publish it

\`\`\`sh
svc ext dev add "$PWD/${PROVIDERS_FOLDER}/${folder}"
svc ext enable ${id}
svc query --provider ${id} "Say hello"
\`\`\`

For the repository's catalog, add \`extensions/catalog/sources/${folder}.json\` (the provider folder's
name) as CONTRIBUTING.md describes; \`svc ext pack ${PROVIDERS_FOLDER}/${folder}\` checks the package as the
catalog build will.
`;
}
