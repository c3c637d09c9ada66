import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { release } from 'node:os';
import { HOST_VERSION } from '../../../platform/config/index.js';
import { providerRootArgs } from './provider-root.js';

/**
 * The kernel settings an unprivileged user, network, PID or mount namespace depends on (Debian's
 * switch, Ubuntu's AppArmor restriction, the per-user limits): a change to any of them can change
 * what the isolation probe finds.
 */
const NAMESPACE_SYSCTLS = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/user/max_net_namespaces',
  '/proc/sys/user/max_pid_namespaces',
  '/proc/sys/user/max_mnt_namespaces',
];

export type IsolationRecordKey = Record<string, string | number | null>;

/**
 * Everything that could change what the isolation probe answers: svc and the launch it tries, the
 * node binary, the kernel and this boot of it, the user, the PATH the tools are found on and the
 * namespace sysctls. A recorded answer is shown only while every part is still equal.
 */
export function isolationRecordKey(env: NodeJS.ProcessEnv = process.env): IsolationRecordKey {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return null;
    }
  };
  let node = process.execPath;
  try {
    node = realpathSync(node);
  } catch {
    // The path as started: still names the binary.
  }
  const launch = createHash('sha256').update(JSON.stringify(providerRootArgs('/', [node], [node, '--version']))).digest('hex');
  const key: IsolationRecordKey = {
    svc: HOST_VERSION,
    launch,
    platform: `${process.platform}-${process.arch}`,
    node,
    nodeVersion: process.version,
    kernel: release(),
    bootId: read('/proc/sys/kernel/random/boot_id'),
    uid: process.getuid?.() ?? null,
    path: env.PATH ?? null,
  };
  for (const sysctl of NAMESPACE_SYSCTLS) key[sysctl.slice('/proc/sys/'.length)] = read(sysctl);
  return key;
}
