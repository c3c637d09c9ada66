import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { submitReply } from './submit-reply.js';

const CommentSchema = z
  .object({
    /** The file commented on, relative to the repository: text for the CLI only, never opened by the host. */
    filename: z.string().min(1).max(4096),
    /** The line in the new version of the file (the old one for a removed line); absent for the whole file. */
    line: z.number().int().positive().optional(),
    side: z.enum(['old', 'new']).optional(),
    body: z.string().trim().min(1).max(8000),
  })
  .strict();

/** The one message a task's CLI reads for a review: each comment on its own line, where it applies. */
export function renderReviewComments(taskId: number, comments: z.output<typeof CommentSchema>[], summary?: string): string {
  const lines = [`Review of your changes (task ${taskId}): ${comments.length} comment${comments.length === 1 ? '' : 's'}. Please address them.`];
  if (summary) lines.push(summary);
  for (const comment of comments) {
    const where = `${comment.filename}${comment.line ? `:${comment.line}` : ''}${comment.side === 'old' ? ' (removed line)' : ''}`;
    lines.push(`- ${where}: ${comment.body.replace(/\s*\n\s*/g, ' ')}`);
  }
  return lines.join('\n');
}

/**
 * "Send comments" of the Review view: every pending comment typed into the task's live terminal as
 * one message, through the path replies take (resuming the CLI session when the terminal is gone).
 */
export const sendReviewComments = defineOperation({
  name: 'send_review_comments',
  group: 'review',
  // A person's review, sent from the web UI or the CLI: an agent has no review of its own to send.
  mcp: false,
  description: "Type a person's review comments (file, line, text) into a task's terminal as one message; its CLI session is resumed when the terminal is gone.",
  readOnly: false,
  runsIn: 'service',
  input: z
    .object({
      taskId: z.number().int().positive(),
      comments: z.array(CommentSchema).min(1).max(200),
      summary: z.string().trim().min(1).max(8000).optional(),
    })
    .strict(),
  output: z.object({ taskId: z.number().int(), executionId: z.number().int(), result: z.enum(['already_running', 'resumed']), text: z.string() }),
  http: { method: 'POST', path: '/api/tasks/:taskId/review-comments' },
  async handler(input, ctx) {
    const terminals = ctx.terminals;
    if (!terminals) throw new SvcError({ code: 'service_required', message: 'send_review_comments runs inside `svc serve`' });
    ctx.services.domain.tasks.get(input.taskId);
    const text = renderReviewComments(input.taskId, input.comments, input.summary);
    const terminal = terminals.summary(input.taskId);
    if (terminal !== undefined && terminal.state !== 'ENDED') {
      if (terminal.state === 'PAUSED') terminals.unpause(input.taskId);
      await submitReply(terminals, input.taskId, text);
      return { taskId: input.taskId, executionId: terminal.executionId, result: 'already_running' as const, text };
    }
    const executionId = (await terminals.resume(input.taskId, {})).id;
    await submitReply(terminals, input.taskId, text, { waitForQuietMs: 700 });
    return { taskId: input.taskId, executionId, result: 'resumed' as const, text };
  },
});
