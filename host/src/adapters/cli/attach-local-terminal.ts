import type { IPty } from 'node-pty';
import { streamOf, type CliIo } from './cli-io.js';
import { killProcessTree } from '../../platform/processes/index.js';

/**
 * Connects a PTY to the user's terminal: raw keystrokes in (Ctrl-C reaches the CLI, not svc),
 * output out, window size followed. Resolves with the session's exit code.
 */
export function attachLocalTerminal(term: IPty, io: CliIo, initialInput?: string, abortSignal?: AbortSignal): Promise<number> {
  return new Promise((resolve) => {
    const stdin = io.stdin;
    const stdout = streamOf(io.stdout);
    const wasRaw = stdin.isTTY && typeof stdin.setRawMode === 'function';
    if (wasRaw) stdin.setRawMode!(true);
    stdin.resume();
    const onInput = (data: Buffer | string) => term.write(typeof data === 'string' ? data : data.toString('utf8'));
    stdin.on('data', onInput);
    // Piped input (not a terminal): its end is the user's Ctrl-D.
    const onEnd = () => {
      if (!wasRaw) term.write('\x04');
    };
    stdin.on('end', onEnd);
    // SIGTERM/SIGINT to svc itself (not keystrokes): end the session's whole process tree.
    const onAbort = () => {
      killProcessTree(term.pid, 'SIGTERM');
      setTimeout(() => killProcessTree(term.pid, 'SIGKILL'), 2000).unref();
    };
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    const onResize = () => {
      if (stdout.columns && stdout.rows) term.resize(stdout.columns, stdout.rows);
    };
    stdout.on('resize', onResize);
    const output = term.onData((data) => stdout.write(data));
    const killOnExit = () => killProcessTree(term.pid, 'SIGKILL');
    process.once('exit', killOnExit);
    if (initialInput) term.write(initialInput);
    term.onExit(({ exitCode, signal }) => {
      output.dispose();
      stdin.off('data', onInput);
      stdin.off('end', onEnd);
      abortSignal?.removeEventListener('abort', onAbort);
      stdout.off('resize', onResize);
      process.off('exit', killOnExit);
      if (wasRaw) stdin.setRawMode!(false);
      stdin.pause();
      resolve(signal ? 128 + signal : exitCode);
    });
  });
}
