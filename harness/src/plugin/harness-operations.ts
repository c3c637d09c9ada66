// Every operation of the harness, in one array (the plugin's `operations`, which the host's one
// registry of operations takes): what its modules export. An operation joins by being exported from
// its module's index.ts; there is no list to add it to.
import { operationsOf } from '@svc-org/host/operation-framework';
import * as approvals from '../approvals/index.js';
import * as board from '../board/index.js';
import * as capabilities from '../capabilities/index.js';
import * as gateways from '../gateways/index.js';
import * as tokens from '../mcp/tokens/index.js';
import * as messaging from '../messaging/index.js';
import * as goal from '../operations/index.js';
import * as outbox from '../outbox/index.js';
import * as routing from '../routing/index.js';
import * as workbench from '../workbench/index.js';

export const HARNESS_OPERATIONS = operationsOf(goal, messaging, approvals, routing, workbench, capabilities, board, gateways, outbox, tokens);
