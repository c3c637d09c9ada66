import { SvcError } from '@svc-org/ai-sdk';
import type { AnyOperation, OperationContext } from '../../../host/src/operations/index.js';
import type { TerminalManager } from '../../../host/src/terminals/index.js';
import { CAPABILITY_OPERATIONS, reportCapabilityCompletion } from '../capabilities/index.js';
import { WORKBENCH_OPERATIONS, WorkbenchWorker } from '../workbench/index.js';
import { ROUTING_OPERATIONS } from './routing-operations.js';
import { routingStores } from './routing-stores.js';

export interface StartRoutingOptions {
  services: OperationContext['services'];
  terminals?: TerminalManager;
  /** Read: SVC_WORKBENCH_POLL_MS (default 1000), SVC_WORKBENCH_BATCH_WINDOW_MS (default 2000). */
  env?: NodeJS.ProcessEnv;
  startWorker?: boolean;
}

export interface RunningRouting {
  worker: WorkbenchWorker;
  stop(): Promise<void>;
}

/** Routing, Workbench and capability operations with an internal route, registered by `svc serve` beside the host's. */
export const ROUTING_HTTP_OPERATIONS: readonly AnyOperation[] = [...ROUTING_OPERATIONS, ...WORKBENCH_OPERATIONS, ...CAPABILITY_OPERATIONS, reportCapabilityCompletion];

/** Inbound routing and the Workbench inside `svc serve`: the timer that turns stop hooks into review batches. */
export function startRouting(options: StartRoutingOptions): RunningRouting {
  const { services, terminals } = options;
  const env = options.env ?? process.env;
  const stores = routingStores(services);
  const worker = new WorkbenchWorker({
    services,
    stores,
    ...(terminals ? { terminals } : {}),
    pollMs: ms(env.SVC_WORKBENCH_POLL_MS, 'SVC_WORKBENCH_POLL_MS') ?? 1000,
    windowMs: ms(env.SVC_WORKBENCH_BATCH_WINDOW_MS, 'SVC_WORKBENCH_BATCH_WINDOW_MS') ?? 2000,
  });
  const wake = () => worker.notify();
  stores.events.on('workbench', wake);
  if (options.startWorker !== false) worker.start();
  return {
    worker,
    async stop() {
      stores.events.off('workbench', wake);
      await worker.stop();
    },
  };
}

function ms(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new SvcError({ code: 'invalid_settings', message: `${name} must be a whole number of milliseconds` });
  return value;
}
