import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../test/support/svc-process.js';
import { CapabilityDefinition, renderToolReference } from '../../host/src/adapters/mcp/index.js';
import { ALL_OPERATIONS } from '../../host/src/app/all-operations.js';

test('docs/mcp-tools.md is what the capability definition renders (run `pnpm mcp:docs` after a change)', async () => {
  const written = await readFile(join(REPO_ROOT, 'docs/mcp-tools.md'), 'utf8');
  expect(written).toBe(renderToolReference(new CapabilityDefinition(ALL_OPERATIONS.list())));
});
