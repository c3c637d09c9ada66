import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import type { TerminalManager } from '../../features/terminals/index.js';
import type { LiveUpdates } from './live-updates.js';

/**
 * `POST /api/web/terminals/stop-all`: the page's "Stop all agents" button. Every live task terminal
 * is stopped as a person's Stop would (each execution ends `stopped`, resumable). It is the page's
 * alone: no operation declares it, so neither MCP nor the operation bridge reaches it, and a caller
 * with the install token is refused (on the command line, `svc serve --stop-terminals` does this).
 */
export function stopAllTerminalsRoute(router: Router, terminals: TerminalManager, live: LiveUpdates): void {
  router.post('/api/web/terminals/stop-all', async (ctx) => {
    if (ctx.state.caller !== 'browser') {
      throw new SvcError({
        code: 'forbidden',
        message: 'stopping every agent at once is a button of the web page, not an API call',
        details: { fix: 'stop one task with `svc task stop <id>`, or every terminal with `svc serve --stop-terminals`' },
      });
    }
    const stopped = await terminals.stopAll();
    live.publish('terminals');
    live.publish('tasks');
    ctx.body = { stopped: stopped.map((execution) => ({ taskId: execution.taskId, executionId: execution.id, outcome: execution.outcome })) };
  });
}
