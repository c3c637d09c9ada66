import { SvcError } from '@svc-org/ai-sdk';
import type { TerminalManager } from '../../features/terminals/index.js';
import type { OperationContext } from '../../operation-framework/index.js';

/** The service's terminals; the invoker forwards `runsIn: 'service'` operations, so this is there. */
export function liveTerminals(ctx: OperationContext): TerminalManager {
  if (!ctx.terminals) throw new SvcError({ code: 'server_not_running', message: 'task terminals live in the running service', details: { fix: 'start it with `svc serve`' } });
  return ctx.terminals;
}
