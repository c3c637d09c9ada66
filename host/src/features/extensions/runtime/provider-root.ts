// The file system a hardened provider process sees, where Linux allows an unprivileged mount
// namespace: an empty read-only tmpfs as its root, with read-only binds of what Node needs to start
// (the system's libraries, the node binary, a few devices), the bootstrap and its own package.
// Node's permission model does not cover Unix sockets: here no socket of the host exists to connect
// to (no /tmp, /run or $SVC_HOME), and creating a socket file fails (EROFS) everywhere.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Sets the root up on $1: $2 is how many paths follow, then the paths (the command follows them). A
 * symlink is copied as a symlink (merged /usr: /lib → usr/lib). It starts as few programs as it
 * can: a parent folder by the shell's own `${p%/*}` and made only when missing, a symlink copied by
 * one `cp -P`; what is left is one `mkdir` and the two `mount`s (the bind, then its read-only
 * remount) of each path bound. The root itself is remounted read-only last, with an empty /proc to
 * mount on.
 */
const SET_UP_ROOT = [
  'set -e',
  'r=$1; n=$2; shift 2',
  'mount -t tmpfs -o mode=0755,size=64k svc-provider "$r"',
  'while [ "$n" -gt 0 ]; do',
  '  p=$1; shift; n=$((n-1))',
  // Already visible through an earlier bind (the node binary under /usr): nothing to add.
  '  if [ -e "$r$p" ] || [ -L "$r$p" ]; then continue; fi',
  '  d=$r${p%/*}',
  '  if [ -L "$p" ]; then [ -d "$d" ] || mkdir -p "$d"; cp -P "$p" "$r$p"; continue; fi',
  '  [ -e "$p" ] || continue',
  '  if [ -d "$p" ]; then mkdir -p "$r$p"; else [ -d "$d" ] || mkdir -p "$d"; : > "$r$p"; fi',
  '  mount --bind "$p" "$r$p"',
  '  mount -o remount,bind,ro,nosuid,nodev "$r$p"',
  'done',
  'mkdir "$r/proc"',
];

/**
 * Run by `sh` inside `unshare -rnpm`, for a launch that sets its own root up: the root as above, then
 * its own /proc (of its PID namespace: only itself, so Node can find its binary and its memory use),
 * then the command, chrooted.
 */
export const PROVIDER_ROOT_SCRIPT = [
  ...SET_UP_ROOT,
  'mount -t proc -o nosuid,nodev,noexec proc "$r/proc"',
  'mount -o remount,ro "$r"',
  // What the shell itself exported (PWD and the like) is not the provider's: only the launch's allowlist.
  'unset PWD OLDPWD SHLVL _',
  'exec chroot "$r" "$@"',
].join('\n');

/**
 * Run by `sh` inside `unshare -rm`, for a root kept for a provider's later launches
 * (provider-root-holders.ts): the root as above, then, chrooted into it, `ready` on its output, then
 * it waits until its input closes (the host ended it or exited). Each launch joins its user
 * and mount namespaces and its root, and makes its own PID, network and mount namespaces with its
 * own /proc (hardened-launch.ts).
 */
export const PROVIDER_ROOT_HOLD_SCRIPT = [
  ...SET_UP_ROOT,
  'mount -o remount,ro "$r"',
  'unset PWD OLDPWD SHLVL _',
  // `ready` is said from inside the root, once chrooted: a launch joins the holder's root as it is
  // then, so it must never see the holder before its chroot (it would join the host's root).
  'exec chroot "$r" /bin/sh -c \'echo ready; exec cat\'',
].join('\n');

/**
 * What every provider root holds besides the node binary, the bootstrap and the package. The
 * transparent huge pages settings are what glibc's allocator reads before it asks for huge pages
 * (the launch's allocator setting, hardened-launch.ts): without them it takes 4 KiB pages only.
 */
const SYSTEM_PATHS = ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/etc/ld.so.cache', '/etc/localtime', '/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/sys/kernel/mm/transparent_hugepage'];

/** An empty folder to mount the root on: only a mount point, the same for every provider. */
export function providerRootMountPoint(): string {
  const path = join(tmpdir(), `svc-provider-root-${process.getuid?.() ?? 0}`);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  return path;
}

/** `sh -c SCRIPT …` arguments that start `command` inside the provider root; `visible` are real paths. */
export function providerRootArgs(mountPoint: string, visible: string[], command: string[]): string[] {
  const paths = [...SYSTEM_PATHS, ...visible];
  return ['sh', '-c', PROVIDER_ROOT_SCRIPT, 'sh', mountPoint, String(paths.length), ...paths, ...command];
}

/** `sh -c SCRIPT …` arguments that set the provider root up and hold it (PROVIDER_ROOT_HOLD_SCRIPT). */
export function providerRootHoldArgs(mountPoint: string, visible: string[]): string[] {
  const paths = [...SYSTEM_PATHS, ...visible];
  return ['sh', '-c', PROVIDER_ROOT_HOLD_SCRIPT, 'sh', mountPoint, String(paths.length), ...paths];
}
