import { describeIsolation } from '../describe-isolation.js';
import type { IsolationMode } from './isolation-mode.js';
import type { IsolationProbe } from './isolation-probe.js';

export interface IsolationEnforcement {
  mode: IsolationMode;
  /** The mode as a person reads it (`describeIsolation`). */
  runsAs: string;
  /** What holds against the provider's code, one short phrase each. */
  enforces: string[];
  /** What does not, said plainly. */
  notEnforced: string[];
  /**
   * False for a hardened provider whose machine checks (network, signals, Unix sockets, a hard memory
   * limit) have no probe answer yet on this machine: those are in neither list until a launch or
   * `svc doctor` probes. A worker needs no probe.
   */
  probed: boolean;
}

/**
 * What a mode enforces on this machine: shown by `svc ext list`, the HTTP listing and the enable
 * prompt. `probe` undefined: not yet probed here (only the process mode's machine checks depend on it).
 */
export function isolationEnforcement(mode: IsolationMode, probe: IsolationProbe | undefined, memoryMb: number): IsolationEnforcement {
  if (mode === 'worker') {
    return {
      mode,
      runsAs: describeIsolation(mode).runsAs,
      enforces: [`heap limit ${memoryMb} MB`, 'deadlines', 'permission gates on the Host Context'],
      notEnforced: ['files', 'processes', 'network', 'signals', 'environment beyond an allowlist'],
      probed: true,
    };
  }
  const enforces = [
    'reads only its own package',
    'no file writes',
    'its own code starts no process, worker, native addon or WASI (processes, its interactive sessions included, only through process:spawn)',
    'environment from an allowlist only',
    `heap limit ${memoryMb} MB`,
    'deadlines (SIGKILL)',
    'permission gates on the Host Context',
  ];
  const notEnforced: string[] = [];
  if (!probe) return { mode, runsAs: describeIsolation(mode).runsAs, enforces, notEnforced, probed: false };
  if (probe.namespaces) enforces.push('no network (own network namespace)', 'cannot signal other processes (own PID namespace)');
  else notEnforced.push('network not isolated', 'signals not isolated (own process group only)');
  if (probe.namespaces && probe.providerRoot) enforces.push('no Unix sockets and no socket files (own read-only root)');
  else notEnforced.push('Unix sockets and socket files not isolated');
  if (probe.addressSpaceLimit) enforces.push('hard memory limit (RLIMIT_AS)');
  else notEnforced.push('no hard memory limit beyond the heap limit');
  return { mode, runsAs: describeIsolation(mode).runsAs, enforces, notEnforced, probed: true };
}
