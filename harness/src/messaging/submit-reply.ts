import type { TerminalManager } from '@svc-org/host/features/terminals';

export interface SubmitReplyOptions {
  /** Wait for the CLI to go quiet first (a freshly resumed session is still drawing). */
  waitForQuietMs?: number;
  maxWaitMs?: number;
  /** Called synchronously just before the Enter that submits the reply (see `submitMessage`). */
  onEnter?: () => void;
}

/**
 * Types a person's reply into a task terminal as its next message. A CLI that draws a prompt with
 * bracketed paste (every real CLI svc runs) gets the terminals' `submitMessage`: it waits for the
 * prompt and for the turn to end (never typing into a busy turn), pastes, presses Enter after a
 * pause, and is confirmed by the CLI's prompt hook. A program that never shows such a prompt gets
 * the same paste and Enter once its output is quiet. The ask is reopened by the caller on failure.
 */
export async function submitReply(terminals: TerminalManager, taskId: number, text: string, options: SubmitReplyOptions = {}): Promise<void> {
  const maxWaitMs = options.maxWaitMs ?? 20_000;
  // A resumed CLI needs a moment to draw its prompt (up to the operator's `terminals.promptWaitMs`);
  // a live one has drawn it long ago.
  const prompt = await waitFor(() => terminals.summary(taskId)?.turn !== 'starting', options.waitForQuietMs ? terminals.settings.promptWaitMs : 0);
  if (prompt) {
    // The agent ends its turn after ask_human; until its Stop hook says so, the turn is busy.
    await waitFor(() => terminals.summary(taskId)?.turn !== 'busy', 120_000);
    await terminals.submitMessage(taskId, text, options.onEnter ? { onEnter: options.onEnter } : {});
    return;
  }
  if (options.waitForQuietMs) await waitForQuiet(terminals, taskId, options.waitForQuietMs, maxWaitMs);
  terminals.write(taskId, text.includes('\n') ? `\x1b[200~${text}\x1b[201~` : text);
  await new Promise((resolve) => setTimeout(resolve, 150));
  options.onEnter?.();
  terminals.write(taskId, '\r');
}

async function waitFor(condition: () => boolean, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
