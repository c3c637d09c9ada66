// The command line of a hardened provider process. Node's permission model confines what the code
// may touch in the process; the OS confines what that model does not cover (network, signals,
// memory) where this machine allows it (see isolation-probe.ts).
import { realpathSync } from 'node:fs';
import type { IsolationProbe } from './isolation-probe.js';
import { LAUNCH_ENV_NAME } from './process-messages.js';
import { providerRootArgs, providerRootMountPoint } from './provider-root.js';

export interface HardenedLaunchOptions {
  /** The provider's package directory: the only place it may read (the entry must be given by its real path, see realPath). */
  packageDir: string;
  /** The bootstrap bundle (host/dist/provider-process.mjs): Node must read it to start. */
  bootstrapFile: string;
  heapMb: number;
  stackSizeMb: number;
  hostEnv: NodeJS.ProcessEnv;
  probe: IsolationProbe;
  nodePath?: string;
  /**
   * The pid of a holder of this provider's root, set up and ready (provider-root-holders.ts): the
   * launch joins its namespaces and root instead of setting a root up. Only with a provider root.
   */
  rootHolder?: number;
  /**
   * A start-up snapshot of the bootstrap built for these flags (provider-snapshot.ts): Node starts
   * from it instead of loading the bootstrap bundle. Part of the provider root.
   */
  snapshotBlob?: string;
}

export interface HardenedLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Locale and time zone only: the provider gets its home and platform from the Host Context. */
const PROCESS_ENV_ALLOWLIST = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];

/**
 * glibc's allocator for the launch's node (another C library ignores it): its heap in transparent
 * huge pages where the system gives them on request (it reads /sys/kernel/mm/transparent_hugepage,
 * which the provider root holds), and blocks up to 32 MiB taken from that heap rather than mapped
 * one by one. Node reads a start-up snapshot into memory it allocates, the file and then copies of
 * its parts, about twice the file's size; in 4 KiB pages each page of it is a page fault, and those
 * were most of what a start from the snapshot cost beyond Node's own start.
 */
const ALLOCATOR_TUNABLES = 'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432';

/** Address space allowed beyond the heap: V8's own reservations, code, stacks and buffers. */
const ADDRESS_SPACE_HEADROOM_MB = 2048;

/**
 * The real path: the module loader resolves symlinks and is refused a symlinked folder outside what
 * may be read (macOS /var → /private/var), so only real paths are allowed and loaded.
 */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The real paths a provider root binds besides the system's: node, the bootstrap, the provider's package. */
export function providerRootPaths(options: Pick<HardenedLaunchOptions, 'packageDir' | 'bootstrapFile' | 'nodePath' | 'snapshotBlob'>): string[] {
  const paths = [realPath(options.nodePath ?? process.execPath), realPath(options.bootstrapFile), realPath(options.packageDir)];
  return options.snapshotBlob === undefined ? paths : [...paths, realPath(options.snapshotBlob)];
}

/** The V8 flags of a launch: a start-up snapshot starts only under the flags it was built with. */
export function providerV8Flags(options: Pick<HardenedLaunchOptions, 'heapMb' | 'stackSizeMb'>): string[] {
  return [`--max-old-space-size=${options.heapMb}`, `--stack-size=${Math.max(984, options.stackSizeMb * 1024 - 64)}`];
}

/** The Node flags of a launch besides the paths it may read and the V8 flags. */
export function providerNodeFlags(probe: IsolationProbe): string[] {
  // No --allow-fs-write, --allow-child-process, --allow-worker, --allow-wasi: all denied.
  return [probe.permissionFlag, '--no-addons', '--disable-warning=ExperimentalWarning'];
}

/** Locale and time zone of the host's environment, the only variables a provider process (and its root's holder) gets. */
export function providerProcessEnv(hostEnv: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PROCESS_ENV_ALLOWLIST) {
    const value = hostEnv[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

export function hardenedLaunch(options: HardenedLaunchOptions): HardenedLaunch {
  const env = providerProcessEnv(options.hostEnv);
  // Node's start only: the provider's main removes it (provider-process-main.ts).
  if (process.platform === 'linux') env[LAUNCH_ENV_NAME] = ALLOCATOR_TUNABLES;
  const nodeBinary = realPath(options.nodePath ?? process.execPath);
  const node = [
    nodeBinary,
    ...providerNodeFlags(options.probe),
    `--allow-fs-read=${realPath(options.packageDir)}`,
    `--allow-fs-read=${realPath(options.bootstrapFile)}`,
    ...providerV8Flags(options),
    // From a snapshot, the bootstrap's path is still given as the script: Node 22 and later let a
    // process started from a snapshot with no script read its working directory (the held root's
    // `/`), as the entry point it would otherwise lack.
    ...(options.snapshotBlob === undefined ? [realPath(options.bootstrapFile)] : ['--snapshot-blob', realPath(options.snapshotBlob), realPath(options.bootstrapFile)]),
  ];
  let argv = node;
  // Own user, network and PID namespaces: no network, and no other process to signal. `--fork`
  // makes the provider PID 1 of its namespace; `--kill-child` ends it with its wrapper. With a
  // mount namespace too, its own read-only root: no Unix socket to reach, no socket file to make.
  if (options.probe.namespaces && options.probe.providerRoot && options.rootHolder !== undefined) {
    // The root set up once (provider-root-holders.ts): its user and mount namespaces and its root
    // joined, then this launch's own PID, network and mount namespaces, with its own /proc on the
    // root's empty /proc (in its own mount namespace: the holder's root is not changed).
    argv = ['nsenter', `--target=${options.rootHolder}`, '--user', '--mount', '--root', '--wd', '--', 'unshare', '-npm', '--fork', '--kill-child=SIGKILL', '--mount-proc', ...node];
  } else if (options.probe.namespaces && options.probe.providerRoot) {
    const visible = providerRootPaths(options);
    argv = ['unshare', '-rnpm', '--fork', '--kill-child=SIGKILL', ...providerRootArgs(providerRootMountPoint(), visible, node)];
  } else if (options.probe.namespaces) argv = ['unshare', '-rnp', '--fork', '--kill-child=SIGKILL', ...argv];
  if (options.probe.addressSpaceLimit) {
    argv = ['prlimit', `--as=${(options.heapMb + ADDRESS_SPACE_HEADROOM_MB) * 1024 * 1024}`, '--', ...argv];
  }
  return { command: argv[0]!, args: argv.slice(1), env };
}
