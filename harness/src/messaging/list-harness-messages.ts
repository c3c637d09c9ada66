import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { DISPLAY_STATUSES, HarnessMessageSchema } from './message-record.js';
import { harnessStores } from './harness-stores.js';

export const listHarnessMessages = defineOperation({
  name: 'list_harness_messages',
  group: 'harness',
  mcp: false,
  description:
    'The notification center: every message to a person and its reply, newest first, with ownership, status and the actions a person can take. Filter by workspace, project, task or status; page with `before`.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z
    .object({
      workspaceId: z.coerce.number().int().positive().optional(),
      projectId: z.coerce.number().int().positive().optional(),
      taskId: z.coerce.number().int().positive().optional(),
      status: z.enum(DISPLAY_STATUSES).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
      /** The previous page's `nextBefore`. */
      before: z.coerce.number().int().positive().optional(),
    })
    .strict(),
  output: z.object({ items: z.array(HarnessMessageSchema), nextBefore: z.number().int().nullable() }),
  http: { method: 'GET', path: '/api/harness/messages' },
  handler(input, ctx) {
    return harnessStores(ctx.services).messages.list(input);
  },
});
