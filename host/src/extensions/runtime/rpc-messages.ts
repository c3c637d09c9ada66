// Messages on the per-call MessagePort between the host and a provider worker.
import type { CliStreamEvent, ProcessExit, SvcErrorData } from '@svc-org/ai-sdk';
import type { MessagePort } from 'node:worker_threads';
import type { HostMethodName } from './host-context-protocol.js';

export type AdapterMethod =
  | 'buildSessionProcess'
  | 'generate'
  | 'stream'
  | 'models'
  | 'mcp.inspect'
  | 'mcp.install'
  | 'mcp.uninstall'
  | 'hooks.inspect'
  | 'hooks.install'
  | 'hooks.uninstall'
  | 'skills.inspect'
  | 'skills.install'
  | 'skills.uninstall';

/** worker → host */
export type WorkerMessage =
  /** The call started running on worker thread `tid`: its deadline starts now. */
  | { t: 'hi'; tid: number }
  | { t: 'req'; id: number; m: HostMethodName; a: unknown[] }
  | { t: 'evs'; e: CliStreamEvent[] }
  /** Before `done`: the thread's (or process's) heap and RSS in bytes, and `load` ms if this call loaded the entry. */
  | { t: 'st'; heap: number; rss: number; load?: number }
  | { t: 'done'; ok: true; v: unknown }
  | { t: 'done'; ok: false; e: SvcErrorData };

/** host → worker */
export type HostMessage =
  | { t: 'res'; id: number; ok: true; v: unknown }
  | { t: 'res'; id: number; ok: false; e: SvcErrorData }
  | { t: 'out'; h: number; k: 'stdout' | 'stderr'; d: string }
  | { t: 'eof'; h: number; k: 'stdout' | 'stderr' }
  | { t: 'exit'; h: number; x: ProcessExit }
  /** More room in the stream window: `n` events and `b` size units (see eventSize). */
  | { t: 'credit'; n: number; b: number }
  | { t: 'cancel'; reason: 'cancelled' | 'timeout' | 'unloaded' };

/** The piscina task: data only, plus the port. */
export interface WorkerTask {
  port: MessagePort;
  entryPath: string;
  pluginId: string;
  method: AdapterMethod;
  args: unknown[];
  cli: { command: string; version: string };
  platform: { os: string; arch: string; homeDir: string; hostVersion: string; nodeVersion: string };
  /** The largest stream event the host accepts (see eventSize). */
  maxEventBytes: number;
  /** The deepest message the host accepts (see message-bounds.ts): a deeper event ends the call instead. */
  maxMessageDepth: number;
}

/** How many stream events the worker may send before the host grants more credit (the byte window is a runtime limit). */
export const STREAM_EVENT_WINDOW = 8192;
export const EVENT_BATCH_SIZE = 512;
