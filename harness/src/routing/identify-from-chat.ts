import { IDENTIFY_TEXT_LIMIT, identifyProject } from '../../../host/src/features/knowledge/index.js';
import type { OperationContext } from '../../../host/src/operations/index.js';
import { runOperation } from '../messaging/run-operation.js';

export interface ChatPlacement {
  project: { id: number } | null;
  candidates: { projectId: number; name: string }[];
}

/**
 * identify_project over a chat message, through the operation's own input and output checks. A
 * message may be longer than identify_project reads: placing it is a search, so its start places it,
 * and the message itself goes on whole to whatever the caller does with it.
 */
export async function identifyFromChat(ctx: OperationContext, text: string): Promise<ChatPlacement> {
  return (await runOperation(identifyProject, { text: text.slice(0, IDENTIFY_TEXT_LIMIT), limit: 5 }, ctx)) as ChatPlacement;
}
