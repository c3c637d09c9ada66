import type { TerminalManager } from '@svc-org/host/features/terminals';
import type { OperationContext } from '@svc-org/host/operation-framework';
import { approvalStores } from './approval-stores.js';
import { applyApprovalTimeouts } from './approval-timeouts.js';
import { deliverUndeliveredApprovals } from './deliver-approval.js';

/** How often `svc serve` applies the approval timeout policies (SVC_APPROVAL_SWEEP_MS). */
export const APPROVAL_SWEEP_MS = 30_000;

/**
 * Inside `svc serve`: types the outcomes a stopped service recorded but never typed, then applies
 * the timeout policies on a timer. Returns what stops the timer.
 */
export function startApprovals(services: OperationContext['services'], terminals: TerminalManager | undefined, env: NodeJS.ProcessEnv): () => void {
  const ctx: OperationContext = { services, ...(terminals ? { terminals } : {}), caller: { via: 'internal' }, signal: new AbortController().signal };
  if (terminals) void deliverUndeliveredApprovals(terminals, approvalStores(services).approvals, services.logger);
  const every = Number(env.SVC_APPROVAL_SWEEP_MS);
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      applyApprovalTimeouts(ctx)
        .catch((error: unknown) => services.logger.warn('approval timeouts could not be applied', { error: String(error) }))
        .finally(() => (running = false));
    },
    Number.isInteger(every) && every > 0 ? every : APPROVAL_SWEEP_MS,
  );
  timer.unref();
  return () => clearInterval(timer);
}
