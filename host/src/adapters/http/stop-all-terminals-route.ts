import type Koa from 'koa';
import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import type { TerminalManager } from '../../features/terminals/index.js';
import type { LiveUpdates } from './live-updates.js';

/**
 * `POST /api/web/terminals/stop-all`: the page's "Stop all agents" button. Every live task terminal
 * is stopped as a person's Stop would (each execution ends `stopped`, resumable), and every one
 * still starting as soon as it is up; a start still preparing after START_WAIT_MS is called off
 * (`calledOff`: its task ids; its CLI never starts). `GET` says how many that is (`running` and `starting`), for
 * the button's count. It is the page's alone: no operation declares it, so neither MCP nor the
 * operation bridge reaches it, and a caller with the install token is refused (on the command line,
 * `svc serve --stop-terminals` does this).
 */
export function stopAllTerminalsRoute(router: Router, terminals: TerminalManager, live: LiveUpdates): void {
  router.get('/api/web/terminals/stop-all', (ctx) => {
    refuseUnlessBrowser(ctx);
    ctx.body = { running: terminals.list().filter((terminal) => terminal.state !== 'ENDED').length, starting: terminals.startingTasks().length };
  });
  router.post('/api/web/terminals/stop-all', async (ctx) => {
    refuseUnlessBrowser(ctx);
    const { stopped, calledOff } = await terminals.stopAll();
    live.publish('terminals');
    live.publish('tasks');
    ctx.body = { stopped: stopped.map((execution) => ({ taskId: execution.taskId, executionId: execution.id, outcome: execution.outcome })), calledOff };
  });
}

function refuseUnlessBrowser(ctx: Koa.Context): void {
  if (ctx.state.caller !== 'browser') {
    throw new SvcError({
      code: 'forbidden',
      message: 'stopping every agent at once is a button of the web page, not an API call',
      details: { fix: 'stop one task with `svc task stop <id>`, or every terminal with `svc serve --stop-terminals`' },
    });
  }
}
