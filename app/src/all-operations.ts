// The one registry of operations: what the host's core groups and features contribute, and the
// operations of each plugin the host wires (the harness's, one array from its entry point). Every
// face is derived from it: the HTTP routes and the localhost bridge of `svc serve`, the MCP tools and
// profiles (`svc mcp`, `/mcp`, the build's listings, docs/mcp-tools.md), and the tests of the faces. No adapter or test keeps a list of its own
// (test/operation-lists.test.ts). The CLI does not load it: a command loads only the operations it runs.
import { HOST_OPERATIONS } from '@svc-org/host/host-operations';
import { OperationRegistry } from '@svc-org/host/operation-framework';
import { HOST_PLUGINS } from './host-plugins.js';

export const ALL_OPERATIONS = new OperationRegistry([...HOST_OPERATIONS, ...HOST_PLUGINS.flatMap((plugin) => plugin.operations)]);
