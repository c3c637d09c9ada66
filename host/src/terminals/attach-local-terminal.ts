import type { IPty } from 'node-pty';
import type { CliIo } from '../cli/cli-io.js';
import { killProcessTree } from '../processes/kill-process-tree.js';

/**
 * Connects a PTY to the user's terminal: raw keystrokes in (Ctrl-C reaches the CLI, not svc),
 * output out, window size followed. Resolves with the session's exit code.
 */
export function attachLocalTerminal(term: IPty, io: CliIo, initialInput?: string): Promise<number> {
  return new Promise((resolve) => {
    const stdin = io.stdin;
    const wasRaw = stdin.isTTY && typeof stdin.setRawMode === 'function';
    if (wasRaw) stdin.setRawMode!(true);
    stdin.resume();
    const onInput = (data: Buffer | string) => term.write(typeof data === 'string' ? data : data.toString('utf8'));
    stdin.on('data', onInput);
    const onResize = () => {
      if (io.stdout.columns && io.stdout.rows) term.resize(io.stdout.columns, io.stdout.rows);
    };
    io.stdout.on?.('resize', onResize);
    const output = term.onData((data) => io.stdout.write(data));
    const killOnExit = () => killProcessTree(term.pid, 'SIGKILL');
    process.once('exit', killOnExit);
    if (initialInput) term.write(initialInput);
    term.onExit(({ exitCode, signal }) => {
      output.dispose();
      stdin.off('data', onInput);
      io.stdout.off?.('resize', onResize);
      process.off('exit', killOnExit);
      if (wasRaw) stdin.setRawMode!(false);
      stdin.pause();
      resolve(signal ? 128 + signal : exitCode);
    });
  });
}
