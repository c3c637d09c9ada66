import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built worker bootstrap (host/dist/worker.mjs). Beside this module when running from the
 * bundle; found by walking up to the repository when running from source (tests).
 */
export function resolveWorkerFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  const beside = join(dir, 'worker.mjs');
  if (existsSync(beside)) return beside;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'host', 'dist', 'worker.mjs');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('host/dist/worker.mjs is missing: run `pnpm build` first');
}
