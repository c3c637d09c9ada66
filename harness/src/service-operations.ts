// The operations `svc serve` registers: the host's one list and the harness's. Every operation
// declared to run in the service (`runsIn: 'service'`) that `svc mcp` or the CLI forwards to it must
// be here; a test holds the MCP server's operations against this list.
import { HOST_OPERATIONS } from '../../host/src/host-operations.js';
import type { AnyOperation } from '../../host/src/operations/index.js';
import { MCP_TOKEN_OPERATIONS } from './mcp/tokens/index.js';
import { HARNESS_OPERATIONS } from './outbox/index.js';
import { relayChannelReply, ROUTING_HTTP_OPERATIONS } from './routing/index.js';

export const SERVICE_OPERATIONS: readonly AnyOperation[] = [...HOST_OPERATIONS, ...HARNESS_OPERATIONS, ...ROUTING_HTTP_OPERATIONS, relayChannelReply, ...MCP_TOKEN_OPERATIONS];
