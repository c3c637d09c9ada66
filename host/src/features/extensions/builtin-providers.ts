import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The static provider registry: the official providers and the demo agent ship with the service.
// They still load through preflight and the isolated runtime, and start disabled like any other.
export const BUILTIN_PROVIDER_FOLDERS = ['claude-code', 'codex', 'gemini-cli', 'demo'] as const;

/** The repository (or install) root that holds `extensions/cli-providers/`. */
export function resolveProvidersRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'extensions', 'cli-providers'))) return join(dir, 'extensions', 'cli-providers');
    dir = dirname(dir);
  }
  return undefined;
}

export function builtinProviderDirs(root = resolveProvidersRoot()): string[] {
  if (!root) return [];
  return BUILTIN_PROVIDER_FOLDERS.map((name) => join(root, name)).filter((dir) => existsSync(join(dir, 'package.json')));
}
