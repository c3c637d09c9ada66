#!/usr/bin/env node
// Entry of the `svc` command: runs the bundle built by `pnpm build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/svc.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('svc is not built yet: run `pnpm install && pnpm build` in the svc checkout\n');
  process.exit(1);
}
await import(bundle);
