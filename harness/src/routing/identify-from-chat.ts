import { IDENTIFY_TEXT_LIMIT, identifyProjectOf } from '@svc-org/host/features/knowledge';
import type { OperationContext } from '@svc-org/host/operation-framework';

export interface ChatPlacement {
  project: { id: number } | null;
  candidates: { projectId: number; name: string }[];
}

/**
 * What identify_project answers for a chat message, among the projects the caller may read. A
 * message may be longer than identify_project reads: placing it is a search, so its start places it,
 * and the message itself goes on whole to whatever the caller does with it.
 */
export async function identifyFromChat(ctx: OperationContext, text: string): Promise<ChatPlacement> {
  return identifyProjectOf(ctx, { text: text.slice(0, IDENTIFY_TEXT_LIMIT), limit: 5 });
}
