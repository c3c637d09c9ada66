import { StringDecoder } from 'node:string_decoder';
import { SvcError } from '@svc-org/ai-sdk';
import { resizeTaskTerminal, sendTaskTerminalInput } from '../../operations/terminal/index.js';
import type { ServiceClient } from '../../client/service-client.js';
import { streamOf, type CliIo } from './cli-io.js';

/** Ctrl-] leaves the terminal running, as in telnet and `docker attach`-style tools. */
export const DETACH_KEY = 0x1d;

export type AttachOutcome = 'detached' | 'ended';

/**
 * A task terminal of the running service in the user's terminal: raw keystrokes go to the input
 * route (Ctrl-C included), the output stream goes to stdout, the window size follows. The open
 * stream counts as a person attached, so the disconnect keepalive does not run meanwhile.
 */
export async function attachRemoteTerminal(client: ServiceClient, taskId: number, io: CliIo, signal: AbortSignal): Promise<AttachOutcome> {
  const base = `/api/internal/terminal/${taskId}`;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });

  const stdout = streamOf(io.stdout);
  const sendSize = () => {
    const { columns, rows } = stdout;
    if (columns && rows) client.call(resizeTaskTerminal, { taskId, cols: columns, rows }).catch(() => undefined);
  };
  sendSize();
  const response = await client.open('GET', `${base}/stream`, controller.signal);
  io.stderr.write(`[attached to task ${taskId}: Ctrl-] detaches and leaves it running]\r\n`);

  const stdin = io.stdin;
  const raw = Boolean(stdin.isTTY && stdin.setRawMode);
  if (raw) stdin.setRawMode!(true);
  const decoder = new StringDecoder('utf8');
  let queue: Promise<unknown> = Promise.resolve();
  let detached = false;
  const send = (bytes: Buffer) => {
    const text = decoder.write(bytes);
    if (text === '') return;
    // One request at a time keeps keystrokes in order.
    queue = queue
      .then(() => client.call(sendTaskTerminalInput, { taskId, data: text }))
      .catch((error) => {
        if (!(SvcError.hasCode(error) && error.code === 'terminal_not_running')) io.stderr.write(`\r\n[input failed: ${(error as Error).message}]\r\n`);
      });
  };
  const onInput = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const at = bytes.indexOf(DETACH_KEY);
    if (at === -1) return send(bytes);
    if (at > 0) send(bytes.subarray(0, at));
    detached = true;
    controller.abort();
  };
  stdin.on('data', onInput);
  stdin.resume();
  stdout.on('resize', sendSize);

  try {
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) stdout.write(chunk);
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    stdin.off('data', onInput);
    stdout.off('resize', sendSize);
    if (raw) stdin.setRawMode!(false);
    stdin.pause();
    signal.removeEventListener('abort', onAbort);
    await queue;
  }
  return detached || controller.signal.aborted ? 'detached' : 'ended';
}
