import { getBoard } from '../board/index.js';
import { GATEWAY_SETTINGS_OPERATIONS } from '../gateways/index.js';
import { MESSAGING_TOOLS, NOTIFICATION_CENTER_OPERATIONS, sendReviewComments } from '../messaging/index.js';
import { APPROVAL_OPERATIONS } from '../approvals/index.js';
import { sendDueMessages } from './send-due-messages.js';

/** Every operation of the harness, for the registries of the CLI, `svc serve` and `svc mcp`. */
export const HARNESS_OPERATIONS = [...MESSAGING_TOOLS, ...NOTIFICATION_CENTER_OPERATIONS, ...GATEWAY_SETTINGS_OPERATIONS, sendDueMessages, sendReviewComments, getBoard, ...APPROVAL_OPERATIONS];
