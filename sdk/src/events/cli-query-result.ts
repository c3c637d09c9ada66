import { z } from 'zod';
import { FINISH_REASONS } from './finish-reason.js';

export const CliQueryResultSchema = z.object({
  text: z.string(),
  reasoning: z.string().optional(),
  toolCalls: z.array(z.object({ toolCallId: z.string(), toolName: z.string(), input: z.unknown() })),
  toolResults: z.array(
    z.object({ toolCallId: z.string(), toolName: z.string(), output: z.unknown(), isError: z.boolean().optional() }),
  ),
  usage: z
    .object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      totalTokens: z.number().optional(),
      costUsd: z.number().optional(),
    })
    .optional(),
  sessionId: z.string().optional(),
  finishReason: z.enum(FINISH_REASONS),
  warnings: z.array(z.string()),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/** The canonical result of a query: what `generate()` returns and `collectCliQueryStream()` builds. */
export type CliQueryResult = z.infer<typeof CliQueryResultSchema>;
