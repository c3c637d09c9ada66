import { z } from 'zod';

/** A live (or just ended) task terminal as the service holds it. */
export const TerminalSummarySchema = z.object({
  taskId: z.number().int(),
  executionId: z.number().int(),
  state: z.string(),
  pid: z.number().int(),
  attached: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  keepaliveRemainingMs: z.number().nullable(),
  /** `starting` until the CLI shows its prompt, then `idle` / `busy` as its turn hooks report. */
  turn: z.enum(['starting', 'idle', 'busy']),
});
