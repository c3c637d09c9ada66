// A second process on the same database: ends an execution (its event is written in the same
// transaction), then, when asked, starts handling the event and never finishes. The test kills it
// with SIGKILL at one of those points.
import { openDatabase } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { EventWorker } from '../../src/platform/events/index.js';

const [file, executionId, mode] = process.argv.slice(2);
const domain = new Domain(openDatabase(file!));
domain.executions.finish(Number(executionId), { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
process.stdout.write('ended\n');
if (mode === 'handle') {
  const worker = new EventWorker({
    store: domain.events,
    owner: `child-${process.pid}`,
    pollMs: 10,
    leaseMs: 300,
    handle: async (event) => {
      process.stdout.write(`handling ${event.type} ${event.id}\n`);
      await new Promise(() => undefined);
    },
  });
  worker.start();
}
setInterval(() => undefined, 60_000);
