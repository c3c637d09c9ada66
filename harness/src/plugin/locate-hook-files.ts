import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '@svc-org/ai-sdk';
import type { HarnessFiles } from '@svc-org/host/features/terminals';

/**
 * Finds the checkout's `harness/hooks/` and `host/bin/svc.mjs` from wherever this module runs (the
 * built bundle under host/dist or the sources under harness/src), by walking up to the folder that
 * holds both: what a task terminal's CLI runs besides itself (the host asks it of the harness).
 */
export function locateHookFiles(from: string = fileURLToPath(import.meta.url)): HarnessFiles {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const ladderHook = join(dir, 'harness', 'hooks', 'ladder-hook.cjs');
    const svcBin = join(dir, 'host', 'bin', 'svc.mjs');
    if (existsSync(ladderHook) && existsSync(svcBin)) {
      return { node: process.execPath, svcBin, ladderHook, turnHook: join(dir, 'harness', 'hooks', 'turn-hook.mjs'), approvalHook: join(dir, 'harness', 'hooks', 'approval-hook.cjs') };
    }
  }
  throw new SvcError({ code: 'harness_files_missing', message: 'the harness hook scripts (harness/hooks/) were not found beside the svc installation' });
}
