import { askHuman } from './ask-human.js';
import { getHarnessMessage } from './get-harness-message.js';
import { listHarnessMessages } from './list-harness-messages.js';
import { listNotifyTargets } from './list-notify-targets.js';
import { notifyHuman } from './notify-human.js';
import { pushToHuman } from './push-to-human.js';
import { replyToAsk } from './reply-to-ask.js';
import { resendHarnessMessage } from './resend-harness-message.js';

/** The five messaging tools (MCP profile `task`), in the order docs/mcp-tools.md lists them. */
export const MESSAGING_TOOLS = [listNotifyTargets, pushToHuman, askHuman, notifyHuman, replyToAsk];

/** The notification center's data operations. */
export const NOTIFICATION_CENTER_OPERATIONS = [listHarnessMessages, getHarnessMessage, resendHarnessMessage];

