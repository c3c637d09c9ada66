import { stat } from 'node:fs/promises';
import { probeCliVersion, type ProbeFunction } from './preflight/index.js';

const TTL_MS = 10 * 60_000;

/**
 * The version probe, remembered per executable identity (path, size, mtime) for a while: loading a
 * provider runs preflight every time, and a CLI that did not change need not be started again.
 * `svc ext doctor` and `svc ext enable` always probe afresh.
 */
export function createCachedCliProbe(now: () => number = Date.now): ProbeFunction {
  const cache = new Map<string, { at: number; outcome: Awaited<ReturnType<ProbeFunction>> }>();
  return async (command, args, options) => {
    const info = await stat(command).catch(() => undefined);
    if (!info) return probeCliVersion(command, args, options);
    const key = [command, info.size, info.mtimeMs, ...args].join('\0');
    const hit = cache.get(key);
    if (hit && now() - hit.at < TTL_MS) return hit.outcome;
    const outcome = await probeCliVersion(command, args, options);
    if (outcome.kind === 'exited') cache.set(key, { at: now(), outcome });
    return outcome;
  };
}
