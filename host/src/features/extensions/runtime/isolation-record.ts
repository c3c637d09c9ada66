// The isolation probe's last answer on this machine, `$SVC_HOME/isolation-probe.json`: what a
// listing shows for a hardened provider without starting the probe's processes. Only a listing reads
// it; a launch always probes live and rewrites it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { isolationRecordKey, type IsolationRecordKey } from './isolation-record-key.js';

/** What this machine can enforce, as probed once and recorded (isolation-probe.ts). */
export interface IsolationProbe {
  /** Node's permission flag, as this Node accepts it: `--permission`, or `--experimental-permission` where the model is still experimental (Node 20). */
  permissionFlag: '--permission' | '--experimental-permission';
  /** An unprivileged user + network + PID namespace can be made (`unshare -rnp`, Linux). */
  namespaces: boolean;
  /**
   * An unprivileged mount namespace can give the provider its own read-only root (provider-root.ts):
   * no Unix socket of the host to connect to, no socket file to create.
   */
  providerRoot: boolean;
  /** A hard address-space limit can be set on the child (`prlimit --as`, Linux). */
  addressSpaceLimit: boolean;
}

export const ISOLATION_RECORD_FILE = 'isolation-probe.json';

const IsolationRecordSchema = z.object({
  key: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  probe: z.object({
    permissionFlag: z.enum(['--permission', '--experimental-permission']),
    namespaces: z.boolean(),
    providerRoot: z.boolean(),
    addressSpaceLimit: z.boolean(),
  }),
});

const sameKey = (a: IsolationRecordKey, b: IsolationRecordKey) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((name) => Object.hasOwn(b, name) && a[name] === b[name]);
};

/** The recorded answer when its key still matches this machine; undefined when none does (not yet probed). */
export function readIsolationRecord(svcHome: string, env: NodeJS.ProcessEnv = process.env): IsolationProbe | undefined {
  let text: string;
  try {
    text = readFileSync(join(svcHome, ISOLATION_RECORD_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let parsed: z.infer<typeof IsolationRecordSchema>;
  try {
    const result = IsolationRecordSchema.safeParse(JSON.parse(text));
    if (!result.success) return undefined;
    parsed = result.data;
  } catch {
    return undefined;
  }
  return sameKey(parsed.key, isolationRecordKey(env)) ? parsed.probe : undefined;
}

/** Writes a live answer with this machine's key (tmp + rename); a home not created yet, or not writable, gets none. */
export function writeIsolationRecord(svcHome: string, probe: IsolationProbe, env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(svcHome)) return;
  const file = join(svcHome, ISOLATION_RECORD_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ key: isolationRecordKey(env), probe }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // Only a later listing's detail is lost: it says "not yet probed".
  }
}
