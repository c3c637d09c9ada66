import { z } from 'zod';

/**
 * Where a provider's code runs: `worker` is a worker thread of the host (trusted code, full rights);
 * `process` is the hardened mode, a child process under Node's permission model and, where the
 * platform allows, its own user, network and PID namespaces and a hard memory limit.
 */
export const IsolationModeSchema = z.enum(['worker', 'process']);
export type IsolationMode = z.infer<typeof IsolationModeSchema>;
