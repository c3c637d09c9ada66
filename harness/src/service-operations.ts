// The operations `svc serve` registers: the host's and the harness's. Every operation declared to
// run in the service (`runsIn: 'service'`) that `svc mcp` or the CLI forwards to it must be here;
// a test holds the MCP server's operations against this list.
import { ALL_OPERATIONS, type AnyOperation } from '../../host/src/operations/index.js';
import { HARNESS_OPERATIONS } from './outbox/index.js';
import { relayChannelReply, ROUTING_HTTP_OPERATIONS } from './routing/index.js';

export const SERVICE_OPERATIONS: readonly AnyOperation[] = [...ALL_OPERATIONS, ...HARNESS_OPERATIONS, ...ROUTING_HTTP_OPERATIONS, relayChannelReply];
