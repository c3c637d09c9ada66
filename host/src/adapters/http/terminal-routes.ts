import type Router from '@koa/router';
import { z } from 'zod';
import { parseInput } from '../../platform/errors/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';

const StreamQuery = z.object({ cursor: z.coerce.number().int().min(0).optional() }).strict();

/**
 * Raw terminal bytes as they come, for `svc task attach`: a byte stream, not a JSON answer, so it is
 * the one terminal route that is not an operation. An open stream counts as a person attached.
 */
export function terminalRoutes(router: Router, api: ApiContext): void {
  router.get('/api/internal/terminal/:taskId/stream', (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const query = parseInput(StreamQuery, ctx.query, 'stream query');
    const summary = api.terminals.summary(taskId);
    const stream = api.terminals.openStream(taskId, query.cursor);
    ctx.req.socket.setTimeout(0);
    // The response closing (viewer detached or gone) ends the attachment.
    ctx.res.on('close', () => stream.destroy());
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Svc-Execution-Id', String(summary?.executionId ?? ''));
    ctx.set('X-Svc-Cursor', String(stream.position));
    ctx.type = 'application/octet-stream';
    ctx.body = stream;
  });
}
