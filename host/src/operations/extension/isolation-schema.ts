import { z } from 'zod';
import { IsolationModeSchema } from '../../features/extensions/runtime/index.js';

/** How a provider runs and what that enforces on this machine (`IsolationEnforcement`). */
export const IsolationSchema = z.object({
  mode: IsolationModeSchema,
  runsAs: z.string(),
  enforces: z.array(z.string()),
  notEnforced: z.array(z.string()),
  /** False: a hardened provider not yet probed on this machine (its network, signal, socket and memory checks are in neither list). */
  probed: z.boolean(),
});
