// Messages on a hardened provider process's IPC channel: each call's MessagePort traffic, relayed.
import type { HostMessage, WorkerMessage } from '@svc-org/ai-sdk';
import type { WorkerTaskData } from './rpc-messages.js';

/** host → provider process */
export type HostToProcess =
  /** Start call `c`; `tid` is the host's name for this process (what `hi` reports). */
  | { k: 'run'; c: number; tid: number; task: WorkerTaskData }
  | { k: 'm'; c: number; m: HostMessage }
  /** The host closed the call's port: the call is over for it. */
  | { k: 'close'; c: number };

/** provider process → host */
export type ProcessToHost =
  | { k: 'm'; c: number; m: WorkerMessage }
  /** The task runner returned (it posted `done` before, unless the call was closed). */
  | { k: 'end'; c: number };

/** The argument with which a provider process started from a snapshot only says `ok` (the host's check of a snapshot it built). */
export const PROVIDER_SNAPSHOT_CHECK = 'svc-snapshot-check';

/**
 * What the host sets in a hardened launch's environment for Node's own start (hardened-launch.ts),
 * not for the provider: the process's main removes it before any provider code runs.
 */
export const LAUNCH_ENV_NAME = 'GLIBC_TUNABLES';
