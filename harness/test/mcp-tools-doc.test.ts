import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../test/support/svc-process.js';
import { CapabilityDefinition, renderToolReference } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/host/app/all-operations';

test('docs/mcp-tools.md is what the capability definition renders (run `pnpm mcp:docs` after a change)', async () => {
  const written = await readFile(join(REPO_ROOT, 'docs/mcp-tools.md'), 'utf8');
  expect(written).toBe(renderToolReference(new CapabilityDefinition(ALL_OPERATIONS.list())));
});
