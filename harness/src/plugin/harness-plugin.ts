// The harness as a plugin of the host: everything the host wires of it, declared in one place.
import type { CliCommand } from '@svc-org/host/adapters/cli';
import { defineHostPlugin, type HostPlugin } from '@svc-org/host/host-plugin';
import { verifyGatewayCredential } from '../gateways/index.js';
import { MESSAGING_CONFIG_KEYS } from '../messaging/index.js';
import { startHarness } from '../outbox/index.js';
import { startRouting } from '../routing/index.js';
import { reportTaskOverlap } from '../workbench/index.js';
import { createHarnessState } from './create-harness-state.js';
import { HARNESS_CLI } from './harness-cli.js';
import { HARNESS_MIGRATIONS } from './harness-migrations.js';
import { HARNESS_OPERATIONS } from './harness-operations.js';
import { activeChannels, HARNESS, harnessOf, mcpTokensOf, type HarnessState } from './harness-state.js';
import { locateHookFiles } from './locate-hook-files.js';

export const harnessPlugin: HostPlugin<HarnessState, CliCommand> = defineHostPlugin<HarnessState, CliCommand>({
  id: HARNESS.id,
  migrations: HARNESS_MIGRATIONS,
  operations: HARNESS_OPERATIONS,
  configKeys: MESSAGING_CONFIG_KEYS,
  cli: HARNESS_CLI,
  // Who an MCP caller is: a gateway's plugin by its credential, a gateway-side caller by the channels
  // it serves, a Streamable HTTP client by its token.
  mcpCallers: {
    verifyGatewayCredential: (services, credential) => verifyGatewayCredential(services.db, credential),
    activeChannels,
    authenticateToken: (services, token) => mcpTokensOf(services).authenticate(token),
    markTokenUsed: (services, tokenId) => mcpTokensOf(services).markUsed(tokenId),
  },
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
