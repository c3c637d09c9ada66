import type { TerminalManager } from '../../../host/src/terminals/index.js';

export interface SubmitReplyOptions {
  /** Wait for the CLI to go quiet first (a freshly resumed session is still drawing). */
  waitForQuietMs?: number;
  maxWaitMs?: number;
}

/**
 * Types a person's reply into a task terminal as its next message: bracketed paste (so a multi-line
 * reply is one message, not several), then Enter after a short pause, as a person would. This is the
 * one place that writes a reply into a PTY: where the terminals offer `submitMessage(taskId, text)`
 * (paste, delayed Enter, waiting for an idle CLI, confirmed by the prompt hook), this body becomes
 * that one call.
 */
export async function submitReply(terminals: TerminalManager, taskId: number, text: string, options: SubmitReplyOptions = {}): Promise<void> {
  if (options.waitForQuietMs) await waitForQuiet(terminals, taskId, options.waitForQuietMs, options.maxWaitMs ?? 20_000);
  terminals.write(taskId, text.includes('\n') ? `\x1b[200~${text}\x1b[201~` : text);
  await new Promise((resolve) => setTimeout(resolve, 150));
  terminals.write(taskId, '\r');
}

async function waitForQuiet(terminals: TerminalManager, taskId: number, quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let lastEnd = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const summary = terminals.summary(taskId);
    if (!summary || summary.state === 'ENDED') return;
    if (summary.end !== lastEnd) {
      lastEnd = summary.end;
      quietSince = Date.now();
    } else if (summary.end > 0 && Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
