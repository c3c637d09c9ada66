// The `svc` executable.
import { runCli } from './run-cli.js';

const controller = new AbortController();
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
