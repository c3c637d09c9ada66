import { z } from 'zod';
import { FINISH_REASONS } from './finish-reason.js';

// One discriminated union on `type`. An error mid-stream is an `error` event, never a throw.
export const CliStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('reasoning'), text: z.string() }),
  z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), input: z.unknown() }),
  z.object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.unknown(),
    isError: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('usage'),
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number().optional(),
    costUsd: z.number().optional(),
  }),
  z.object({ type: z.literal('session'), sessionId: z.string() }),
  z.object({ type: z.literal('finish'), finishReason: z.enum(FINISH_REASONS) }),
  // `fix`: what the person can do about it, printed under the message (`fix: …`); a thrown SvcError's
  // `details.fix` becomes it.
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), fix: z.string().optional() }),
  // Something the person should know while the answer still stands (a fallback model, a skipped
  // file); `svc query` prints it on stderr, and it lands in the result's `warnings`.
  z.object({ type: z.literal('warning'), message: z.string() }),
]);

export type CliStreamEvent = z.infer<typeof CliStreamEventSchema>;
export type CliStreamEventType = CliStreamEvent['type'];
export type CliUsage = Omit<Extract<CliStreamEvent, { type: 'usage' }>, 'type'>;
export type CliToolCall = Omit<Extract<CliStreamEvent, { type: 'tool-call' }>, 'type'>;
export type CliToolResult = Omit<Extract<CliStreamEvent, { type: 'tool-result' }>, 'type'>;
