// Whether a scaffold lands among the official providers of an svc repository (its
// extensions/cli-providers/ folder): then it is a workspace package like them, not a stand-alone one.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const SDK_NAME = '@svc-org/ai-sdk';
export const PROVIDERS_FOLDER = 'extensions/cli-providers';

export interface ProviderWorkspace {
  /** The repository root: pnpm-workspace.yaml, sdk/, scripts/build-provider.mjs, tsconfig.base.json. */
  root: string;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isSvcRepository(dir: string): boolean {
  if (!existsSync(join(dir, 'pnpm-workspace.yaml')) || !existsSync(join(dir, 'scripts/build-provider.mjs')) || !existsSync(join(dir, 'tsconfig.base.json'))) return false;
  try {
    return (JSON.parse(readFileSync(join(dir, 'sdk/package.json'), 'utf8')) as { name?: unknown }).name === SDK_NAME;
  } catch {
    return false;
  }
}

/** The repository whose extensions/cli-providers/ is `parentDir`, if it is one. */
export function findProviderWorkspace(parentDir: string): ProviderWorkspace | undefined {
  const parent = realOrResolved(parentDir);
  const root = dirname(dirname(parent));
  if (realOrResolved(join(root, PROVIDERS_FOLDER)) !== parent) return undefined;
  return isSvcRepository(root) ? { root } : undefined;
}
