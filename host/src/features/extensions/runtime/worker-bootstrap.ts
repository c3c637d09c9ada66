// Runs inside a provider's worker thread (piscina): tags the processes the thread starts, routes
// its console to the host log, and serves each task with the shared task runner.
import { threadId } from 'node:worker_threads';
import { PROVIDER_THREAD_TAG } from '../../../platform/processes/tagged-processes.js';
import type { WorkerTask } from './rpc-messages.js';
import { loadEntry } from './require-entry.js';
import { routeConsole, runProviderTask } from './run-provider-task.js';
import { tagChildProcesses } from './tag-child-processes.js';

// The pool's tag arrives in the worker's environment; each thread adds its own id.
tagChildProcesses(PROVIDER_THREAD_TAG, `${process.env[PROVIDER_THREAD_TAG] ?? 'unknown'}.${threadId}`);
routeConsole();

/** A call's task, or `{ warm: true }`: the thread was started ahead of a call and has nothing to run yet. */
export default function runTask(task: WorkerTask | { warm: true }): Promise<void> {
  if ('warm' in task) return Promise.resolve();
  return runProviderTask(task, threadId, loadEntry);
}
