// The harness as a plugin of the host: everything the host wires of it, declared in one place.
import { defineHostPlugin, type HostPlugin } from '@svc-org/host/host-plugin';
import { MESSAGING_CONFIG_KEYS } from '../messaging/index.js';
import { startHarness } from '../outbox/index.js';
import { startRouting } from '../routing/index.js';
import { reportTaskOverlap } from '../workbench/index.js';
import { createHarnessState } from './create-harness-state.js';
import { HARNESS_MIGRATIONS } from './harness-migrations.js';
import { HARNESS_OPERATIONS } from './harness-operations.js';
import { HARNESS, harnessOf, type HarnessState } from './harness-state.js';
import { locateHookFiles } from './locate-hook-files.js';

export const harnessPlugin: HostPlugin<HarnessState> = defineHostPlugin<HarnessState>({
  id: HARNESS.id,
  migrations: HARNESS_MIGRATIONS,
  operations: HARNESS_OPERATIONS,
  configKeys: MESSAGING_CONFIG_KEYS,
  init(host) {
    const state = createHarnessState(host);
    return {
      state,
      ports: {
        isWorkbench: (taskId) => state.workbench.isWorkbench(taskId),
        terminalFiles: () => locateHookFiles(),
      },
    };
  },
  start({ services, terminals, env }) {
    // The one outbox timer (its first pass settles sends a killed service left in flight), then
    // inbound routing and the Workbench: the timer that turns stop hooks into review batches.
    const harness = startHarness({ services, terminals, env });
    const routing = startRouting({ services, terminals, env });
    const { workbench } = harnessOf(services);
    return {
      handleDomainEvent: (event) => void routing.handleDomainEvent(event),
      onTaskOverlap(projectId, overlap) {
        if (reportTaskOverlap(workbench, projectId, overlap) !== undefined) routing.worker.notify();
      },
      async stop() {
        await routing.stop();
        await harness.stop();
      },
    };
  },
});
