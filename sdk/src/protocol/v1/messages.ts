// The messages of one adapter call's channel between the host and a provider's worker thread or
// hardened process. The provider side sends `WorkerMessage`s, the host `HostMessage`s.
import type { SvcErrorData } from '../../errors/svc-error.js';
import type { CliStreamEvent } from '../../events/cli-stream-event.js';
import type { ProcessExit } from '../../host-context/host-context.js';
import type { HostMethodName } from './host-methods.js';

/** provider → host */
export type WorkerMessage =
  /** The call started running on worker thread `tid`: its deadline starts now. */
  | { t: 'hi'; tid: number }
  | { t: 'req'; id: number; m: HostMethodName; a: unknown[] }
  | { t: 'evs'; e: CliStreamEvent[] }
  /** Before `done`: the thread's (or process's) heap and RSS in bytes, and `load` ms if this call loaded the entry. */
  | { t: 'st'; heap: number; rss: number; load?: number }
  | { t: 'done'; ok: true; v: unknown }
  | { t: 'done'; ok: false; e: SvcErrorData };

/** host → provider */
export type HostMessage =
  | { t: 'res'; id: number; ok: true; v: unknown }
  | { t: 'res'; id: number; ok: false; e: SvcErrorData }
  | { t: 'out'; h: number; k: 'stdout' | 'stderr'; d: string }
  | { t: 'eof'; h: number; k: 'stdout' | 'stderr' }
  | { t: 'exit'; h: number; x: ProcessExit }
  /** More room in the stream window: `n` events and `b` size units (see eventSize). */
  | { t: 'credit'; n: number; b: number }
  | { t: 'cancel'; reason: 'cancelled' | 'timeout' | 'unloaded' };

/** How many stream events the provider may send before the host grants more credit (the byte window is a host limit). */
export const STREAM_EVENT_WINDOW = 8192;
export const EVENT_BATCH_SIZE = 512;
