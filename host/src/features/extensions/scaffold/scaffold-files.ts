// The files of a provider package scaffold, by path relative to the package folder.
import { relative } from 'node:path';
import { adapterTemplate } from './adapter-template.js';
import { adapterTestTemplate } from './adapter-test-template.js';
import { configSchemaTemplate } from './config-schema-template.js';
import { deriveScaffoldLockfile } from './derive-scaffold-lockfile.js';
import { entryTemplate } from './entry-template.js';
import { gitignoreTemplate } from './gitignore-template.js';
import { SCAFFOLD_TOOLS, type SvcCheckout } from './locate-svc-checkout.js';
import { npmrcTemplate } from './npmrc-template.js';
import { packageJsonTemplate, SDK_PACKAGE_NAME, sdkSpecifier } from './package-json-template.js';
import { readmeTemplate } from './readme-template.js';
import type { ScaffoldNames } from './scaffold-names.js';
import { tsconfigTemplate } from './tsconfig-template.js';

/** `dir` is the package folder the files will land in (the lockfile links the SDK relative to it). */
export function scaffoldFiles(names: ScaffoldNames, checkout: SvcCheckout, dir: string): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': packageJsonTemplate(names, checkout),
    'config.schema.json': configSchemaTemplate(),
    'tsconfig.json': tsconfigTemplate(),
    '.gitignore': gitignoreTemplate(),
    'README.md': readmeTemplate(names, checkout),
    'src/index.ts': entryTemplate(names),
    [`src/${names.adapterModule}.ts`]: adapterTemplate(names),
    [`test/${names.adapterModule}.test.ts`]: adapterTestTemplate(names),
  };
  const lockfile =
    checkout.lockfile === undefined
      ? undefined
      : deriveScaffoldLockfile({
          svcLockfile: checkout.lockfile,
          tools: Object.fromEntries(SCAFFOLD_TOOLS.map((tool) => [tool, checkout.toolVersions[tool]])),
          sdk: { name: SDK_PACKAGE_NAME, specifier: sdkSpecifier(checkout), relativePath: relative(dir, checkout.sdkDir) },
        });
  if (lockfile !== undefined) files['pnpm-lock.yaml'] = lockfile;
  if (checkout.pnpmStoreDir !== undefined) files['.npmrc'] = npmrcTemplate(checkout.pnpmStoreDir);
  return files;
}
