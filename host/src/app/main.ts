// The `svc` executable.
import { runCli } from './run-cli.js';

const controller = new AbortController();
// `svc … | head` closes our stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
let interrupts = 0;
process.on('SIGINT', () => {
  // First Ctrl-C cancels the running call (its CLI process tree is killed); a second one exits now.
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});
process.on('SIGTERM', () => controller.abort());

const status = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
}, controller.signal);
process.exitCode = status;
