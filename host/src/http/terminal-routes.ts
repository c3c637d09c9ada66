import type Router from '@koa/router';
import { z } from 'zod';
import { parseInput } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';
import { readJsonBody } from './read-json-body.js';

const SizeFields = {
  cols: z.number().int().min(2).max(1000).optional(),
  rows: z.number().int().min(2).max(1000).optional(),
};
const StartBody = z.object({ connection: z.string().min(1), model: z.string().min(1).optional(), ...SizeFields }).strict();
const ResumeBody = z
  .object({ connection: z.string().min(1).optional(), model: z.string().min(1).optional(), fresh: z.boolean().optional(), ...SizeFields })
  .strict();
const InputBody = z
  .object({
    /** Bytes for the terminal as typed (e.g. "yes\r", "\u0003"). */
    data: z.string().max(64 * 1024),
    /** Press Enter after `data`. */
    submit: z.boolean().optional(),
  })
  .strict();
const SubmitBody = z
  .object({
    /** The message, as the CLI's next one (lines joined with \n). */
    text: z.string().min(1).max(64 * 1024),
    readyTimeoutMs: z.number().int().min(0).max(300_000).optional(),
    confirmTimeoutMs: z.number().int().min(0).max(300_000).optional(),
  })
  .strict();
const ResizeBody = z.object({ cols: z.number().int().min(2).max(1000), rows: z.number().int().min(2).max(1000) }).strict();
const BufferQuery = z
  .object({
    cursor: z.coerce.number().int().min(0).optional(),
    maxBytes: z.coerce.number().int().min(1).max(1024 * 1024).default(64 * 1024),
  })
  .strict();
const StreamQuery = z.object({ cursor: z.coerce.number().int().min(0).optional() }).strict();

/** The localhost bridge to PTY sessions: `/api/internal/terminal/<task_id>/…` (harness seed). */
export function terminalRoutes(router: Router, api: ApiContext): void {
  const base = '/api/internal/terminal';

  router.get(base, (ctx) => {
    ctx.body = { items: api.terminals.list() };
  });

  router.get(`${base}/:taskId`, (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    api.domain.tasks.get(taskId);
    ctx.body = { taskId, terminal: api.terminals.summary(taskId) ?? null, execution: api.domain.executions.latestForTask(taskId) ?? null };
  });

  router.get(`${base}/:taskId/buffer`, (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const query = parseInput(BufferQuery, ctx.query, 'buffer query');
    const read = api.terminals.read(taskId, query.cursor, query.maxBytes);
    ctx.body = {
      taskId,
      executionId: read.executionId,
      state: read.state,
      data: read.data.toString('utf8'),
      from: read.from,
      cursor: read.cursor,
      start: read.start,
      end: read.end,
      behind: read.behind,
      missedBytes: read.missedBytes,
      more: read.cursor < read.end,
    };
  });

  // Raw terminal bytes as they come, for `svc task attach`; an open stream counts as a person attached.
  router.get(`${base}/:taskId/stream`, (ctx) => {
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

  router.post(`${base}/:taskId/input`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const body = await readJsonBody(ctx, InputBody);
    const data = body.submit ? `${body.data}\r` : body.data;
    api.terminals.write(taskId, data);
    ctx.body = { taskId, bytes: Buffer.byteLength(data) };
  });

  // A message typed as the CLI's next one: waits for its prompt, refuses a busy turn (409 terminal_busy).
  router.post(`${base}/:taskId/submit`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const { text, ...options } = await readJsonBody(ctx, SubmitBody);
    ctx.body = { taskId, ...(await api.terminals.submitMessage(taskId, text, options)) };
  });

  router.post(`${base}/:taskId/resize`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const body = await readJsonBody(ctx, ResizeBody);
    api.terminals.resize(taskId, body.cols, body.rows);
    ctx.body = { taskId, cols: body.cols, rows: body.rows };
  });

  router.post(`${base}/:taskId/start`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const body = await readJsonBody(ctx, StartBody);
    ctx.status = 201;
    ctx.body = await api.terminals.start(taskId, body);
  });

  router.post(`${base}/:taskId/stop`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    await readJsonBody(ctx, z.object({}).strict());
    ctx.body = await api.terminals.stop(taskId, 'stopped');
  });

  router.post(`${base}/:taskId/resume`, async (ctx) => {
    const taskId = parseId(ctx.params.taskId, 'task id');
    const body = await readJsonBody(ctx, ResumeBody);
    ctx.status = 201;
    ctx.body = await api.terminals.resume(taskId, body);
  });
}
