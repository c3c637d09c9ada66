// A hardened provider process's main (see process-pool.ts): the same task runner as a worker
// thread, each call's MessagePort relayed over the framed channel on fd 3 (message-frames.ts).
// Nothing here widens what the permission model allows: the host serves every capability through
// the Host Context. Run by process-bootstrap.ts, or from a start-up snapshot (process-snapshot.ts).
import { Socket } from 'node:net';
import type { MessagePort } from 'node:worker_threads';
import type { WorkerMessage } from '@svc-org/ai-sdk';
import type { WorkerTask } from './rpc-messages.js';
import { LAUNCH_ENV_NAME, type HostToProcess, type ProcessToHost } from './process-messages.js';
import { encodeFrame, FrameReader } from './message-frames.js';
import { confineFileReads } from './confine-file-reads.js';
import { routeConsole, runProviderTask, type EntryLoader } from './run-provider-task.js';

/** Serves the host's calls over fd 3; `loadEntry` loads the provider's entry (require-entry.ts). */
export function startProviderProcess(loadEntry: EntryLoader): void {
  // The allocator's setting was for Node's start (hardened-launch.ts): the provider's environment is the allowlist alone.
  delete process.env[LAUNCH_ENV_NAME];
  confineFileReads();
  routeConsole();

  const { MessageChannel } = process.getBuiltinModule('node:worker_threads');
  const channel = new Socket({ fd: 3, readable: true, writable: true });
  const ports = new Map<number, MessagePort>();
  const send = (message: ProcessToHost) => {
    if (!channel.destroyed) channel.write(encodeFrame(message));
  };

  // The host's frames are trusted; the bound only keeps a broken channel from growing without end.
  const reader = new FrameReader(2 ** 31);
  channel.on('data', (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) {
      if (frame.ok) receive(frame.value as HostToProcess);
      else process.exit(1);
    }
  });

  function receive(message: HostToProcess): void {
    switch (message.k) {
      case 'run': {
        const { port1, port2 } = new MessageChannel();
        ports.set(message.c, port1);
        // What the call sends goes straight onto the IPC channel, not through port1: a provider that
        // then blocks its thread (a native call) must not hold back `hi`, which starts its deadline.
        port2.postMessage = (m: unknown) => send({ k: 'm', c: message.c, m: m as WorkerMessage });
        const task: WorkerTask = { ...message.task, port: port2 };
        void runProviderTask(task, message.tid, loadEntry).finally(() => send({ k: 'end', c: message.c }));
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
  }

  // The host is gone: nothing of the provider outlives it.
  channel.on('close', () => process.exit(0));
  channel.on('error', () => process.exit(0));
}
