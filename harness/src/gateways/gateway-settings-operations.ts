// Configuring gateways and channels (Settings, Notifications; `svc gateway` / `svc channel`).
// Tokens are write-only: they go in through create_gateway and never come back out.
import { listGateways } from './list-gateways.js';
import { getGateway } from './get-gateway.js';
import { createGateway } from './create-gateway.js';
import { deleteGateway } from './delete-gateway.js';
import { checkGatewayHealth } from './check-gateway-health.js';
import { issueGatewayCredential } from './issue-gateway-credential.js';
import { listChannels } from './list-channels.js';
import { createChannel } from './create-channel.js';
import { updateChannel } from './update-channel.js';
import { deleteChannel } from './delete-channel.js';

export const GATEWAY_SETTINGS_OPERATIONS = [listGateways, getGateway, createGateway, deleteGateway, checkGatewayHealth, issueGatewayCredential, listChannels, createChannel, updateChannel, deleteChannel];
