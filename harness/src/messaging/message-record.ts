import { z } from 'zod';

export const MESSAGE_KINDS = ['ASK', 'NOTIFY', 'PUSH', 'FINAL_RESULT'] as const;
export const DELIVERY_STATUSES = ['LOCAL', 'PENDING_DELIVERY', 'SENT', 'SENT_UNVERIFIED', 'FAILED'] as const;
export const ASK_STATUSES = ['INTENT', 'OPEN', 'ANSWERED', 'SUPERSEDED'] as const;
/** What the notification center shows in its Status column. */
export const DISPLAY_STATUSES = ['OPEN', 'ANSWERED', 'SUPERSEDED', 'NOTIFY_ONLY', ...DELIVERY_STATUSES] as const;
export const MESSAGE_ACTIONS = ['view', 'reply', 'resend'] as const;

/** One row of the notification center: a message to a person, its delivery and its reply. */
export const HarnessMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(MESSAGE_KINDS),
  ownership: z.object({ workspaceId: z.number().int().nullable(), projectId: z.number().int().nullable(), taskId: z.number().int().nullable() }),
  executionId: z.number().int().nullable(),
  body: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(DISPLAY_STATUSES),
  deliveryStatus: z.enum(DELIVERY_STATUSES),
  expectReply: z.boolean(),
  target: z.object({ channel: z.string().nullable(), to: z.string().nullable(), threadId: z.string().nullable() }),
  ask: z
    .object({
      id: z.number().int(),
      status: z.enum(ASK_STATUSES),
      reply: z.string().nullable(),
      repliedAt: z.string().nullable(),
      repliedVia: z.string().nullable(),
      resumeOutcome: z.string().nullable(),
    })
    .nullable(),
  outbound: z
    .object({
      id: z.string(),
      state: z.string(),
      attempts: z.number().int(),
      nextAttemptAt: z.string().nullable(),
      lastError: z.object({ code: z.string(), message: z.string() }).nullable(),
    })
    .nullable(),
  delivery: z.object({ platform: z.string().nullable(), chatId: z.string().nullable(), platformMessageId: z.string() }).nullable(),
  actions: z.array(z.enum(MESSAGE_ACTIONS)),
});
export type HarnessMessage = z.infer<typeof HarnessMessageSchema>;
