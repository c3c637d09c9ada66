import { SvcError } from '@svc-org/ai-sdk';
import type { DomainEvent } from '@svc-org/host/platform/events';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { TerminalManager } from '@svc-org/host/features/terminals';
import { WorkbenchEventConsumer, WorkbenchWorker, type DomainEventOutcome } from '../workbench/index.js';
import { routingStores } from './routing-stores.js';

export interface StartRoutingOptions {
  services: OperationContext['services'];
  terminals?: TerminalManager;
  /**
   * Read: SVC_WORKBENCH_POLL_MS (default 1000), SVC_WORKBENCH_BATCH_WINDOW_MS (default 2000),
   * SVC_WORKBENCH_AUTOSTART_INTERVAL_MS (default 60000: the least time between two starts of one Workbench).
   */
  env?: NodeJS.ProcessEnv;
  startWorker?: boolean;
}

export interface RunningRouting {
  worker: WorkbenchWorker;
  /**
   * The handler the service's domain-event worker calls for every claimed event: a child's stop
   * hook or execution end becomes a WorkbenchEvent (idempotent, so a re-handled event adds nothing).
   */
  handleDomainEvent(event: DomainEvent): DomainEventOutcome;
  /** Whether a task is a project's Workbench (the terminal manager gives it `task.workbenchDirective`). */
  isWorkbench(taskId: number): boolean;
  stop(): Promise<void>;
}

/** Inbound routing and the Workbench inside `svc serve`: its delivery timer, and the consumer of the host's domain events. */
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
    autoStartIntervalMs: ms(env.SVC_WORKBENCH_AUTOSTART_INTERVAL_MS, 'SVC_WORKBENCH_AUTOSTART_INTERVAL_MS') ?? 60_000,
  });
  const consumer = new WorkbenchEventConsumer(services, stores);
  const wake = () => worker.notify();
  stores.events.on('workbench', wake);
  if (options.startWorker !== false) worker.start();
  return {
    worker,
    handleDomainEvent(event) {
      const outcome = consumer.handle(event);
      // A new event, or a turn end (perhaps the parent's own, which makes its batch due).
      if (outcome === 'workbench_event' || event.type === 'stop_hook_arrived') worker.notify();
      return outcome;
    },
    isWorkbench: (taskId) => stores.workbench.isWorkbench(taskId),
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
