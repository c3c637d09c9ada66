import type { IsolationMode } from './runtime/index.js';
import { HARDENED_TRUST_NOTICE, TRUST_NOTICE } from './permission-prompt.js';

/** How a mode is said to a person: one line, and what the permissions then do and do not stop. */
export interface IsolationWording {
  /** `process (hardened)` or `worker (a thread of svc, full rights)`. */
  runsAs: string;
  notice: string[];
}

/**
 * The one description of the mode a provider runs in, used by every place that shows it (`svc ext
 * list`, `show`, `enable`, `doctor`, the HTTP API and the web UI); pass the mode the provider really
 * runs in (`effectiveIsolation`), never an assumed default.
 */
export function describeIsolation(mode: IsolationMode): IsolationWording {
  return mode === 'process'
    ? { runsAs: 'process (hardened)', notice: [...HARDENED_TRUST_NOTICE] }
    : { runsAs: 'worker (a thread of svc, full rights)', notice: [...TRUST_NOTICE] };
}
