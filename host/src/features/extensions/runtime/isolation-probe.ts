// What this machine lets the hardened mode enforce, found once per host process by starting the
// tools it would use. A launch of a hardened provider and `svc doctor` probe live; a listing reads
// the last live answer (isolation-record.ts) and starts nothing.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { describeNodeLine } from '../../../platform/config/index.js';
import { writeIsolationRecord, type IsolationProbe } from './isolation-record.js';
import { providerRootArgs, providerRootMountPoint } from './provider-root.js';

export type { IsolationProbe };

let cached: IsolationProbe | undefined;
const recordedIn = new Set<string>();

/** The live answer (probed once per process); with `svcHome`, also recorded there for later listings. */
export function probeIsolation(svcHome?: string): IsolationProbe {
  const probe = (cached ??= probeLive());
  if (svcHome !== undefined && !recordedIn.has(svcHome)) {
    recordedIn.add(svcHome);
    writeIsolationRecord(svcHome, probe);
  }
  return probe;
}

function probeLive(): IsolationProbe {
  const works = (command: string, args: string[]) => {
    if (process.platform !== 'linux') return false;
    try {
      return spawnSync(command, args, { stdio: 'ignore', timeout: 5_000 }).status === 0;
    } catch {
      return false;
    }
  };
  return {
    // From the flags this Node accepts, not its version string.
    permissionFlag: describeNodeLine().permissionFlag ?? '--permission',
    // The same flags the launch uses, so a kernel that forbids unprivileged namespaces says so here.
    namespaces: works('unshare', ['-rnp', '--fork', '--kill-child=SIGKILL', 'true']),
    // The launch's own script, with the node binary this host runs on, asked for its version.
    providerRoot: works('unshare', ['-rnpm', '--fork', '--kill-child=SIGKILL', ...rootProbeArgs()]),
    addressSpaceLimit: works('prlimit', ['--as=1073741824', '--', 'true']),
  };
}

function rootProbeArgs(): string[] {
  if (process.platform !== 'linux') return [];
  const node = realpathSync(process.execPath);
  return providerRootArgs(providerRootMountPoint(), [node], [node, '--version']);
}
