// Runs as a hardened provider process (see process-pool.ts): the same task runner as a worker
// thread, each call's MessagePort relayed over the process's IPC channel. Nothing here widens what
// the permission model allows: the host serves every capability through the Host Context.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { WorkerMessage, WorkerTask } from './rpc-messages.js';
import type { HostToProcess, ProcessToHost } from './process-messages.js';
import { confineFileReads } from './confine-file-reads.js';
import { routeConsole, runProviderTask } from './run-provider-task.js';

confineFileReads();
routeConsole();

const ports = new Map<number, MessagePort>();
const send = (message: ProcessToHost) => {
  if (process.connected) process.send?.(message);
};

process.on('message', (message: HostToProcess) => {
  switch (message.k) {
    case 'run': {
      const { port1, port2 } = new MessageChannel();
      ports.set(message.c, port1);
      // What the call sends goes straight onto the IPC channel, not through port1: a provider that
      // then blocks its thread (a native call) must not hold back `hi`, which starts its deadline.
      port2.postMessage = (m: unknown) => send({ k: 'm', c: message.c, m: m as WorkerMessage });
      const task: WorkerTask = { ...message.task, port: port2 };
      void runProviderTask(task, message.tid).finally(() => send({ k: 'end', c: message.c }));
      return;
    }
    case 'm':
      ports.get(message.c)?.postMessage(message.m);
      return;
    case 'close':
      ports.get(message.c)?.close();
      ports.delete(message.c);
      return;
  }
});

// The host is gone: nothing of the provider outlives it.
process.on('disconnect', () => process.exit(0));
