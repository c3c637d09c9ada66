import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A built bootstrap (host/dist/worker.cjs, or provider-process.mjs for hardened providers). Beside this module when running from the
 * bundle; found by walking up to the repository when running from source (tests).
 */
export function resolveWorkerFile(name = 'worker.cjs'): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  const beside = join(dir, name);
  if (existsSync(beside)) return beside;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'host', 'dist', name);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`host/dist/${name} is missing: run \`pnpm build\` first`);
}
