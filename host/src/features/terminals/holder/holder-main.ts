// Entry of the terminal holder process (host/dist/terminal-holder.mjs), started detached by `svc serve`:
//   node terminal-holder.mjs <SVC_HOME> <build>
import { TerminalHolder } from './terminal-holder.js';

const DEFAULT_IDLE_MS = 60_000;

const [svcHome, build] = process.argv.slice(2);
if (!svcHome || !build) {
  process.stderr.write('usage: terminal-holder <SVC_HOME> <build>\n');
  process.exit(2);
}
const idle = Number(process.env.SVC_TERMINAL_HOLDER_IDLE_MS);
const holder = new TerminalHolder({ svcHome, build, idleMs: Number.isInteger(idle) && idle > 0 ? idle : DEFAULT_IDLE_MS });
// Detached from the service's terminal: a hang-up or Ctrl-C there is not for the holder.
process.on('SIGHUP', () => undefined);
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => holder.shutdown('terminated', true));
try {
  await holder.listen();
} catch (error) {
  process.stderr.write(`terminal holder: ${(error as Error).message}\n`);
  process.exit(1);
}
