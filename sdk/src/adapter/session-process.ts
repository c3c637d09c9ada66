import { z } from 'zod';

// What buildSessionProcess() returns: a structured process description. The host validates it at
// the edge; a string (a shell command line) is refused.
export const SessionProcessSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()),
    cwd: z.string().min(1),
    envPatch: z.record(z.string(), z.string()).default({}),
    initialInput: z.string().optional(),
  })
  .strict();

export type SessionProcess = z.input<typeof SessionProcessSchema>;
