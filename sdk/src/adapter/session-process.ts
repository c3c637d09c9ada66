import { z } from 'zod';
import { UnsupportedAttachmentSchema } from './unsupported-attachment.js';

// What buildSessionProcess() returns: a structured process description. The host validates it at
// the edge; a string (a shell command line) is refused.
export const SessionProcessSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()),
    cwd: z.string().min(1),
    envPatch: z.record(z.string(), z.string()).default({}),
    initialInput: z.string().optional(),
    /** Files the host writes into the request's `runtimeDir` (mode 0600) before the CLI starts. */
    files: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a plain file name (letters, digits, . _ -)'),
            content: z.string().max(1024 * 1024),
          })
          .strict(),
      )
      .max(8)
      .optional(),
    /** Attachments of the request this CLI version cannot take per run; the host shows them on the task. */
    unsupportedAttachments: z.array(UnsupportedAttachmentSchema).optional(),
  })
  .strict();

export type SessionProcess = z.input<typeof SessionProcessSchema>;
