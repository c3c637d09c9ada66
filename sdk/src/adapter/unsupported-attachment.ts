// Its own file, apart from the session process's schema: the host stores these on each execution
// and imports this alone (a listing of tasks builds no session process schema).
import { z } from 'zod';

export const SESSION_ATTACHMENT_KINDS = ['mcpServers', 'stopHook', 'promptSubmitHook', 'preToolUseHook', 'permissionRequestHook', 'directive'] as const;
export type SessionAttachmentKind = (typeof SESSION_ATTACHMENT_KINDS)[number];

/** One attachment an adapter could not apply, and why (shown to the person, so say what is missing). */
export const UnsupportedAttachmentSchema = z
  .object({
    kind: z.enum(SESSION_ATTACHMENT_KINDS),
    reason: z.string().min(1).max(500),
  })
  .strict();
export type UnsupportedAttachment = z.infer<typeof UnsupportedAttachmentSchema>;
