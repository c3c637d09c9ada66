import { expect } from 'vitest';
import type { ConformanceSandbox } from './conformance-sandbox.js';

/**
 * `SVC_CONFORMANCE_ISOLATION=process pnpm test:conformance -- <cli>` runs a provider in the hardened
 * mode (`svc ext enable --isolation process`); unset, each provider runs in its default mode.
 */
export function isolationArgs(): string[] {
  const mode = isolationMode();
  return mode ? ['--isolation', mode] : [];
}

/** Enables the provider in the chosen mode and checks the host really runs it so. */
export async function enableInChosenMode(sandbox: ConformanceSandbox, id: string): Promise<void> {
  await sandbox.ok(['ext', 'enable', id, '--yes', ...isolationArgs()]);
  const mode = isolationMode();
  if (!mode) return;
  const listed = JSON.parse((await sandbox.ok(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string; isolation: { mode: string } }>;
  expect(listed.find((extension) => extension.id === id)).toMatchObject({ state: 'enabled', isolation: { mode } });
}

function isolationMode(): 'process' | 'worker' | undefined {
  const mode = process.env.SVC_CONFORMANCE_ISOLATION;
  if (mode === undefined || mode === '') return undefined;
  if (mode !== 'process' && mode !== 'worker') throw new Error(`SVC_CONFORMANCE_ISOLATION must be process or worker (got "${mode}")`);
  return mode;
}
