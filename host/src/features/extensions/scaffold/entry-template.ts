// src/index.ts of a scaffold: the package's one export, `svcCliPlugin`.
import type { ScaffoldNames } from './scaffold-names.js';

export function entryTemplate(names: ScaffoldNames): string {
  return `// The package entry, built into dist/svc-cli-provider.js. svc imports \`svcCliPlugin\` from it in a
// worker thread, and only after preflight passed and the user confirmed the permissions.
import { defineCliPlugin } from '@svc-org/ai-sdk';
import { ${names.adapterClass} } from './${names.adapterModule}.js';

export const svcCliPlugin = defineCliPlugin({ createAdapter: () => new ${names.adapterClass}() });
`;
}
