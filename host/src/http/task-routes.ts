import type Router from '@koa/router';
import { z } from 'zod';
import { EntityNameSchema, TaskCreateSchema, TaskListFilterSchema, TaskUpdateSchema, parseInput } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';
import { readJsonBody } from './read-json-body.js';

const LabelsBody = z.object({ labels: z.array(EntityNameSchema).max(50) }).strict();

export function taskRoutes(router: Router, api: ApiContext): void {
  const { tasks } = api.domain;
  router.get('/api/tasks', (ctx) => {
    ctx.body = { items: tasks.list(parseInput(TaskListFilterSchema, ctx.query, 'task query')) };
  });
  router.post('/api/tasks', async (ctx) => {
    const body = await readJsonBody(ctx, TaskCreateSchema, 'task');
    ctx.status = 201;
    ctx.body = tasks.create(body);
  });
  router.get('/api/tasks/:id', (ctx) => {
    ctx.body = tasks.get(parseId(ctx.params.id, 'task id'));
  });
  router.patch('/api/tasks/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'task id');
    ctx.body = tasks.update(id, await readJsonBody(ctx, TaskUpdateSchema, 'task update'));
  });
  router.put('/api/tasks/:id/labels', async (ctx) => {
    const id = parseId(ctx.params.id, 'task id');
    const body = await readJsonBody(ctx, LabelsBody, 'task labels');
    ctx.body = tasks.update(id, { labels: body.labels });
  });
  router.delete('/api/tasks/:id', (ctx) => {
    tasks.remove(parseId(ctx.params.id, 'task id'));
    ctx.status = 204;
  });
}
