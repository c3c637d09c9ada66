import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_PROVIDERS } from './svc-process.js';

/** A private copy of a built fixture provider, so a test may edit it or check its marker file. */
export function copyFixtureProvider(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `svc-provider-${name}-`)), name);
  cpSync(join(FIXTURE_PROVIDERS, name), dir, { recursive: true, filter: (src) => !src.endsWith('.evaluated') && !src.includes('/src') });
  return dir;
}
