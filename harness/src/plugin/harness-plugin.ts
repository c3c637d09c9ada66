// The harness as a plugin of the host: everything the host wires of it, declared in one place.
import { defineHostPlugin, type HostPlugin } from '../../../host/src/host-plugin.js';
import type { AnyOperation } from '../../../host/src/operations/framework.js';
import { APPROVAL_TOOLS } from '../approvals/index.js';
import { CAPABILITY_OPERATIONS } from '../capabilities/index.js';
import { MCP_TOKEN_OPERATIONS } from '../mcp/tokens/index.js';
import { MESSAGING_CONFIG_KEYS, MESSAGING_TOOLS } from '../messaging/index.js';
import { setGoalMode } from '../operations/index.js';
import { HARNESS_OPERATIONS, startHarness } from '../outbox/index.js';
import { relayChannelReply, ROUTING_HTTP_OPERATIONS, ROUTING_OPERATIONS, startRouting } from '../routing/index.js';
import { reportTaskOverlap, WORKBENCH_OPERATIONS } from '../workbench/index.js';
import { createHarnessState } from './create-harness-state.js';
import { HARNESS_MIGRATIONS } from './harness-migrations.js';
import { HARNESS, harnessOf, type HarnessState } from './harness-state.js';
import { locateHookFiles } from './locate-hook-files.js';

/** The operations `svc serve` registers (its HTTP routes, and what the CLI and `svc mcp` forward to it). */
const SERVICE_PLACED: readonly AnyOperation[] = [...HARNESS_OPERATIONS, ...ROUTING_HTTP_OPERATIONS, relayChannelReply, ...MCP_TOKEN_OPERATIONS];
/** The operations `svc mcp` and /mcp mount (the capability definition decides which are tools of which profile). */
const MCP_PLACED: readonly AnyOperation[] = [
  setGoalMode,
  ...MESSAGING_TOOLS,
  ...APPROVAL_TOOLS,
  relayChannelReply,
  ...WORKBENCH_OPERATIONS,
  ...ROUTING_OPERATIONS,
  ...CAPABILITY_OPERATIONS,
];

export const harnessPlugin: HostPlugin<HarnessState> = defineHostPlugin<HarnessState>({
  id: HARNESS.id,
  migrations: HARNESS_MIGRATIONS,
  operations: [...new Set([...SERVICE_PLACED, ...MCP_PLACED])],
  placement: { service: SERVICE_PLACED, mcp: MCP_PLACED },
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
