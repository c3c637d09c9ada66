// The files of a provider package scaffold, by path relative to the package folder.
import { adapterTemplate } from './adapter-template.js';
import { adapterTestTemplate } from './adapter-test-template.js';
import { configSchemaTemplate } from './config-schema-template.js';
import { entryTemplate } from './entry-template.js';
import { gitignoreTemplate } from './gitignore-template.js';
import type { SvcCheckout } from './locate-svc-checkout.js';
import { packageJsonTemplate } from './package-json-template.js';
import { readmeTemplate } from './readme-template.js';
import type { ScaffoldNames } from './scaffold-names.js';
import { tsconfigTemplate } from './tsconfig-template.js';

export function scaffoldFiles(names: ScaffoldNames, checkout: SvcCheckout): Record<string, string> {
  return {
    'package.json': packageJsonTemplate(names, checkout),
    'config.schema.json': configSchemaTemplate(),
    'tsconfig.json': tsconfigTemplate(),
    '.gitignore': gitignoreTemplate(),
    'README.md': readmeTemplate(names, checkout),
    'src/index.ts': entryTemplate(names),
    [`src/${names.adapterModule}.ts`]: adapterTemplate(names),
    [`test/${names.adapterModule}.test.ts`]: adapterTestTemplate(names),
  };
}
