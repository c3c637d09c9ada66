import type { MessagePort } from 'node:worker_threads';
import type { WorkerTask } from './rpc-messages.js';

/** What the runtime needs of a pool of provider workers: a piscina pool, or a hardened process. */
export interface ProviderPool {
  run(task: WorkerTask, options: { transferList: MessagePort[] }): Promise<unknown>;
  /** Live threads (or the live process), by the id their calls report in `hi`. */
  readonly threads: ReadonlyArray<{ threadId: number; terminate(): Promise<unknown> }>;
  destroy(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
