import { SvcError } from '@svc-org/ai-sdk';
import type { Terminal } from './terminal.js';

export interface SubmitMessageOptions {
  /** How long to wait for the CLI's prompt (bracketed paste switched on). */
  readyTimeoutMs?: number;
  /** Between the paste and the Enter: Gemini CLI 0.61 takes an Enter within ~0.5 s of a paste as part of it (measured: 250 ms lost, 1 s submitted). */
  enterDelayMs?: number;
  /** How long to wait for the prompt-submit hook that confirms the message went out. */
  confirmTimeoutMs?: number;
  /**
   * The screen must be still this long before the paste (a CLI still drawing drops the Enter);
   * longer where no hook can confirm the message (and no second Enter can repair a dropped one).
   */
  quietMs?: number;
  unconfirmedQuietMs?: number;
  /** Before the first message of a run: a CLI goes on starting after its prompt shows (Qwen Code lost a paste 0.8 s after it). */
  firstQuietMs?: number;
  /** Without a confirmation after this long, Enter is pressed again (only where a hook can confirm). */
  enterRetryMs?: number;
  /**
   * Called synchronously just before the Enter that submits the pasted text (the paste alone sends
   * nothing): a caller that must apply a message once records here that it went out.
   */
  onEnter?: () => void;
}

export interface SubmitMessageResult {
  /** A prompt-submit hook reported the message; false when the CLI has no such hook or it did not come in time. */
  confirmed: boolean;
  turnId?: string;
}

export const SUBMIT_MESSAGE_DEFAULTS = { readyTimeoutMs: 60_000, enterDelayMs: 1000, confirmTimeoutMs: 20_000, quietMs: 400, unconfirmedQuietMs: 1500, firstQuietMs: 3000, enterRetryMs: 3000 } as const;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * Types `text` into a task terminal's CLI as its next message, the way every pinned CLI takes it:
 * wait for the prompt (bracketed paste on), paste the text, then a separate Enter after a pause.
 * Refuses with `terminal_busy` while a turn runs (Codex would discard the running answer; the
 * others would queue it), and confirms the submission by the CLI's prompt-submit hook.
 */
export async function submitMessage(terminal: Terminal, text: string, options: SubmitMessageOptions = {}): Promise<SubmitMessageResult> {
  const { readyTimeoutMs, enterDelayMs, confirmTimeoutMs, quietMs, unconfirmedQuietMs, firstQuietMs, enterRetryMs } = { ...SUBMIT_MESSAGE_DEFAULTS, ...options };
  const message = cleanMessage(text);
  if (message.trim() === '') {
    throw new SvcError({ code: 'invalid_request', message: 'the message is empty' });
  }
  const turns = terminal.turns;
  await turns.ready(readyTimeoutMs, terminal.taskId);
  if (turns.turn === 'busy' || terminal.submitting) {
    throw new SvcError({
      code: 'terminal_busy',
      message: `the CLI in task ${terminal.taskId}'s terminal is in the middle of a turn; send the message when the turn has ended`,
      details: { taskId: terminal.taskId },
    });
  }
  terminal.submitting = true;
  try {
    const quiet = !terminal.messageTyped ? firstQuietMs : turns.signals.promptSubmit ? quietMs : unconfirmedQuietMs;
    await turns.settled(quiet, quiet + 8000);
    terminal.messageTyped = true;
    const confirmation = turns.signals.promptSubmit ? turns.nextSubmit(enterDelayMs + confirmTimeoutMs) : undefined;
    terminal.write(`${PASTE_START}${message}${PASTE_END}`);
    await sleep(enterDelayMs);
    options.onEnter?.();
    terminal.write('\r');
    if (!confirmation) return { confirmed: false };
    // An Enter the CLI dropped leaves the text in its input; pressing Enter again submits it. Only
    // where the hook tells us nothing was submitted yet, so a message never goes out twice.
    let confirmed: SubmitMessageResult | undefined;
    void confirmation.then((result) => (confirmed = result));
    for (let waited = 0; waited + enterRetryMs < confirmTimeoutMs; waited += enterRetryMs) {
      await Promise.race([confirmation, sleep(enterRetryMs)]);
      if (confirmed || terminal.state === 'ENDED') break;
      terminal.write('\r');
    }
    return await confirmation;
  } finally {
    terminal.submitting = false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lines joined with `\n` (a CR would submit early); other control characters, and the paste-end
 * marker that would let text escape the paste, are dropped.
 */
function cleanMessage(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(PASTE_END)
    .join('')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}
