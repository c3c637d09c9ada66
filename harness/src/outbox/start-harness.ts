import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { TerminalManager } from '@svc-org/host/features/terminals';
import { startApprovals } from '../approvals/index.js';
import { createGatewayClient } from '../gateways/index.js';
import { deliverUndeliveredAnswers, harnessStores } from '../messaging/index.js';
import { OutboxStore } from './outbox-store.js';
import { OutboxWorker, type OutboxWorkerOptions } from './outbox-worker.js';

export interface StartHarnessOptions {
  services: OperationContext['services'];
  terminals?: TerminalManager;
  /** Also read: SVC_OUTBOX_POLL_MS (longest sleep of the timer, default 5000), SVC_GATEWAY_TIMEOUT_MS (default 30000), SVC_APPROVAL_SWEEP_MS (default 30000). */
  env?: NodeJS.ProcessEnv;
  worker?: Partial<Pick<OutboxWorkerOptions, 'pollMs' | 'leaseMs' | 'concurrency'>>;
  /** Start the outbox timer (default true; false leaves sending to explicit `worker.drain()` calls). */
  startWorker?: boolean;
  /** Gateway send timeout (default 30 s). */
  sendTimeoutMs?: number;
}

export interface RunningHarness {
  worker: OutboxWorker;
  stop(): Promise<void>;
}

/** The harness's sender inside `svc serve` (or `svc harness drain`): its one outbox timer. */
export function startHarness(options: StartHarnessOptions): RunningHarness {
  const { services, terminals } = options;
  const stores = harnessStores(services);
  const env = options.env ?? process.env;
  const sendTimeoutMs = options.sendTimeoutMs ?? positiveMs(env.SVC_GATEWAY_TIMEOUT_MS, 'SVC_GATEWAY_TIMEOUT_MS');
  const pollMs = options.worker?.pollMs ?? positiveMs(env.SVC_OUTBOX_POLL_MS, 'SVC_OUTBOX_POLL_MS');
  const worker = new OutboxWorker({
    store: new OutboxStore(services.db, services.domain),
    gateways: stores.gateways,
    channels: stores.channels,
    logger: services.logger,
    clientFor: (gatewayId) =>
      createGatewayClient(stores.gateways.get(gatewayId), stores.gateways.tokenOf(gatewayId), {
        hostVersion: services.platform.hostVersion,
        env,
        timeoutMs: sendTimeoutMs,
      }),
    onParked: (taskId) => {
      const terminal = terminals?.summary(taskId);
      if (terminal && terminal.state === 'RUNNING') terminals!.pause(taskId);
    },
    ...options.worker,
    ...(pollMs !== undefined ? { pollMs } : {}),
  });
  const wake = () => worker.notify();
  stores.events.on('enqueued', wake);
  if (options.startWorker !== false) worker.start();
  // Answers a killed service recorded but never typed: typed now, once (their terminals died with it).
  if (terminals) void deliverUndeliveredAnswers(terminals, stores.messages, services.logger);
  // Approval outcomes likewise, and the approval timeout policies on their timer.
  const stopApprovals = options.startWorker !== false ? startApprovals(services, terminals, env) : () => undefined;
  return {
    worker,
    async stop() {
      stopApprovals();
      stores.events.off('enqueued', wake);
      await worker.stop();
    },
  };
}

function positiveMs(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new SvcError({ code: 'invalid_settings', message: `${name} must be a positive whole number of milliseconds` });
  }
  return value;
}
