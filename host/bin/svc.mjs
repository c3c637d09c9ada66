#!/usr/bin/env node
// Entry of the `svc` command: runs the bundle built by `pnpm build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `svc mcp` runs its own, smaller bundle: MCP clients wait for it to start (`svc mcp token` is a
// command of the full CLI).
const entry = process.argv[2] === 'mcp' && process.argv[3] !== 'token' ? 'mcp' : 'svc';
const bundle = fileURLToPath(new URL(`../dist/${entry}.mjs`, import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('svc is not built yet: run `pnpm install && pnpm build` in the svc checkout\n');
  process.exit(1);
}
await import(bundle);
