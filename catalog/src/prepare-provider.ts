// Contribution step 1 run by the build itself: the provider's typecheck and tests must pass, and dist/
// is rebuilt from source so the artifact never carries a stale or hand-edited bundle.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';

export interface PrepareProviderOptions {
  /** scripts/build-provider.mjs of the repository. */
  buildProviderScript: string;
  /** Skips typecheck and tests (never the build); only for tests that build fixture providers. */
  skipChecks?: boolean;
  log?: (line: string) => void;
}

export async function prepareProvider(providerDir: string, options: PrepareProviderOptions): Promise<void> {
  const steps: Array<{ name: string; command: string; args: string[] }> = [];
  if (!options.skipChecks) {
    steps.push({ name: 'typecheck', command: 'pnpm', args: ['--dir', providerDir, 'typecheck'] });
    steps.push({ name: 'test', command: 'pnpm', args: ['--dir', providerDir, 'test'] });
  }
  steps.push({ name: 'build', command: process.execPath, args: [options.buildProviderScript, providerDir] });
  await rm(join(providerDir, 'dist'), { recursive: true, force: true });
  for (const step of steps) {
    options.log?.(`${providerDir}: ${step.name}`);
    const result = await run(step.command, step.args).catch((cause: unknown) => {
      throw new SvcError({
        code: CatalogErrorCodes.providerCheckFailed,
        message: `${step.name} of ${providerDir} could not start: ${(cause as Error).message}`,
        details: { providerDir, step: step.name },
        cause,
      });
    });
    if (result.code !== 0) {
      throw new SvcError({
        code: CatalogErrorCodes.providerCheckFailed,
        message: `${step.name} of ${providerDir} failed (exit ${result.code ?? result.signal}):\n${result.output.slice(-4000)}`,
        details: { providerDir, step: step.name, exitCode: result.code },
      });
    }
  }
}

function run(command: string, args: string[]): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      // Only the tail matters for the error message; a chatty test run must not grow memory unbounded.
      output = (output + chunk.toString('utf8')).slice(-16_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, output }));
  });
}
