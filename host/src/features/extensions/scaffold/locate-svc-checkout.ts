// Finds the svc checkout the running `svc` comes from, so a scaffold can link its SDK folder and use
// the tool versions svc itself was installed with: those are already in this machine's pnpm store,
// which is what lets `pnpm install --offline` work in a fresh scaffold.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '@svc-org/ai-sdk';
import { ScaffoldCodes } from './scaffold-codes.js';

/** The dev tools a scaffold needs, in the versions svc was built and tested with. */
export const SCAFFOLD_TOOLS = ['@types/node', 'esbuild', 'typescript', 'vitest'] as const;
export type ScaffoldTool = (typeof SCAFFOLD_TOOLS)[number];

export interface SvcCheckout {
  root: string;
  /** Absolute real path of the `@svc-org/ai-sdk` package folder. */
  sdkDir: string;
  toolVersions: Record<ScaffoldTool, string>;
  /** svc's pnpm-lock.yaml, when it has one: a scaffold's own lockfile is cut out of it. */
  lockfile?: string;
  /** The pnpm `store-dir` svc was installed with, when pnpm recorded it. */
  pnpmStoreDir?: string;
}

const SDK_NAME = '@svc-org/ai-sdk';
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function findRoot(from: string): string | undefined {
  let dir = from;
  // host/dist/svc.mjs when bundled, host/src/features/extensions/scaffold/*.ts when run from source.
  for (let i = 0; i < 8; i++) {
    if (readJson(join(dir, 'sdk', 'package.json'))?.name === SDK_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

// An exact specifier is used as written; a range (`^20.19.43`) becomes the version actually installed,
// because an offline install can only pick what the store holds.
function toolVersion(root: string, tool: ScaffoldTool, specifier: unknown): string | undefined {
  if (typeof specifier === 'string' && EXACT_VERSION.test(specifier)) return specifier;
  const installed = readJson(join(root, 'node_modules', tool, 'package.json'))?.version;
  return typeof installed === 'string' && EXACT_VERSION.test(installed) ? installed : undefined;
}

// pnpm records the store it installed from in node_modules/.modules.yaml (JSON text) as
// `<store-dir>/v<N>`; the setting a project gives is the part before the version folder.
function pnpmStoreDir(root: string): string | undefined {
  const storeDir = readJson(join(root, 'node_modules', '.modules.yaml'))?.storeDir;
  if (typeof storeDir !== 'string' || !isAbsolute(storeDir)) return undefined;
  return /^v\d+$/.test(basename(storeDir)) ? dirname(storeDir) : storeDir;
}

export function locateSvcCheckout(from = dirname(fileURLToPath(import.meta.url))): SvcCheckout {
  const found = findRoot(from);
  if (!found) {
    throw new SvcError({
      code: ScaffoldCodes.svcCheckoutIncomplete,
      message: `cannot find the svc checkout (a folder holding sdk/package.json named ${SDK_NAME}) above ${from}`,
      details: { fix: 'Run svc from its checkout (pnpm install && pnpm build there), not from a copied bundle' },
    });
  }
  const root = realpathSync(found);
  const pkg = readJson(join(root, 'package.json')) ?? {};
  const specifiers = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) } as Record<string, unknown>;
  const toolVersions = {} as Record<ScaffoldTool, string>;
  const missing: string[] = [];
  for (const tool of SCAFFOLD_TOOLS) {
    const version = toolVersion(root, tool, specifiers[tool]);
    if (version) toolVersions[tool] = version;
    else missing.push(tool);
  }
  if (missing.length > 0 || !existsSync(join(root, 'node_modules'))) {
    throw new SvcError({
      code: ScaffoldCodes.svcCheckoutIncomplete,
      message: `the svc checkout at ${root} has no installed ${missing.length > 0 ? missing.join(', ') : 'dependencies'}`,
      details: { fix: `Run \`pnpm install\` in ${root}, then try again` },
    });
  }
  const lockfile = existsSync(join(root, 'pnpm-lock.yaml')) ? readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8') : undefined;
  const storeDir = pnpmStoreDir(root);
  return {
    root,
    sdkDir: join(root, 'sdk'),
    toolVersions,
    ...(lockfile === undefined ? {} : { lockfile }),
    ...(storeDir === undefined ? {} : { pnpmStoreDir: storeDir }),
  };
}
