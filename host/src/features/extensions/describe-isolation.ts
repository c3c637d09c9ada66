import type { IsolationMode } from './runtime/isolation-mode.js';

const GATES = "These permissions gate the Host Context calls that start processes, read the connection's settings and edit the CLI's configuration files; the provider's own storage and the log need none.";

/**
 * The truth about the gates, said at the moment of consent: they guard Host Context calls, not the
 * provider's own Node.js code.
 */
export const TRUST_NOTICE: readonly string[] = [
  GATES,
  "They do not confine the provider's own code: it runs as you, in a worker thread of svc, and can use any Node.js API (files, network, child processes) without asking.",
  'Enable only providers you trust like any program you install; a catalog provider is code you choose to trust.',
];

/** The same truth for a provider in the hardened mode (`--isolation process`). */
export const HARDENED_TRUST_NOTICE: readonly string[] = [
  GATES,
  "The provider runs hardened: in its own process under Node's permission model, it reads only its own package and can write no file, start no process, worker or native addon; what it needs beyond that goes through the Host Context and these gates.",
  'What this machine cannot enforce is listed under "not enforced".',
];

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
