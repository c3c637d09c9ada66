// The task a provider's worker thread (or hardened process) runs for one adapter call. The call's
// messages and methods are the SDK's protocol (`@svc-org/ai-sdk`, protocol/v1).
import type { AdapterCall } from '@svc-org/ai-sdk';
import type { MessagePort } from 'node:worker_threads';

/** One call's task as data: what a hardened process receives over its channel. */
export type WorkerTaskData = AdapterCall & {
  entryPath: string;
  pluginId: string;
  cli: { command: string; version: string };
  platform: { os: string; arch: string; homeDir: string; hostVersion: string; nodeVersion: string };
  /** The largest stream event the host accepts (see eventSize). */
  maxEventBytes: number;
  /** The deepest message the host accepts (see message-bounds.ts): a deeper event ends the call instead. */
  maxMessageDepth: number;
};

/** The piscina task: data only, plus the port. */
export type WorkerTask = WorkerTaskData & { port: MessagePort };
