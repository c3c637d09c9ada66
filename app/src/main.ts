// The `svc` executable.
import { processIo } from '@svc-org/host/adapters/cli/process-io';
import { runCli } from './run-cli.js';

// Once nothing is left to run, the process ends at once: an ending event loop otherwise goes on to
// take V8's heap apart page by page before the process can exit, which a short command (svc task
// list) would wait for. Registered first, so it runs where Node would begin that teardown: what
// `process.on('exit')` holds (the log's last lines, written synchronously) still runs.
process.once('beforeExit', () => process.exit());

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // First Ctrl-C cancels the running call (its CLI process tree is killed); a second one exits now.
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});
process.on('SIGTERM', () => controller.abort());

// Not awaited at the top: the bundle's chunks (host/dist/cli) then also run as CommonJS scripts on Node 20.
void runCli(process.argv.slice(2), processIo(), controller.signal).then((status) => {
  process.exitCode = status;
});
