import type Router from '@koa/router';
import { ExecutionListFilterSchema, parseInput } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';

export function executionRoutes(router: Router, api: ApiContext): void {
  const { executions } = api.domain;
  router.get('/api/executions', (ctx) => {
    const filter = parseInput(ExecutionListFilterSchema, ctx.query, 'execution query');
    if (filter.taskId !== undefined) api.domain.tasks.get(filter.taskId);
    ctx.body = { items: executions.list(filter) };
  });
  router.get('/api/executions/:id', (ctx) => {
    ctx.body = executions.get(parseId(ctx.params.id, 'execution id'));
  });
}
