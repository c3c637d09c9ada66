import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { startHarness } from './start-harness.js';

export const sendDueMessages = defineOperation({
  name: 'send_due_messages',
  group: 'harness',
  mcp: false,
  description:
    "Send every due outbox entry from this process now (beside, or without, the service's own timer); first settles entries a stopped sender left mid-send as SENT_UNVERIFIED.",
  readOnly: false,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ attempted: z.number().int(), recovered: z.number().int() }),
  async handler(_input, ctx) {
    const harness = startHarness({ services: ctx.services, startWorker: false });
    try {
      const recovered = harness.worker.recoverAbandoned();
      return { attempted: await harness.worker.drain(), recovered };
    } finally {
      await harness.stop();
    }
  },
});
