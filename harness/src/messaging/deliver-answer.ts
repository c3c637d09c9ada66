import type { TerminalManager } from '@svc-org/host/features/terminals';
import { submitReply } from './submit-reply.js';

export interface AnswerToDeliver {
  /** The ask (its message id), ANSWERED with `resume_outcome` = `delivering`. */
  id: number;
  taskId: number;
  reply: string;
}

/** Where a delivery's outcome is written: the asks (MessageStore) or the approval requests. */
export interface AnswerLedger {
  /** The text was entered (`already_running`) or entered into a resumed session (`resumed`). */
  recordResumeOutcome(id: number, outcome: DeliveredAnswer['result']): void;
  /** It could not be typed before its Enter: what it answered waits again. */
  reopen(id: number): void;
}

export interface DeliveredAnswer {
  executionId: number;
  result: 'already_running' | 'resumed';
}

/**
 * Types an answered ask's reply into its task: into the live terminal as its next message (unparked
 * first), or, when that terminal is gone, into its CLI session resumed for it. The outcome replaces
 * `delivering` just before the Enter that submits the text, so a service killed after that is not
 * typed again on restart, and one killed before it is. The ask is reopened when the reply could not
 * be typed: the question waits again and nothing is lost.
 */
export async function deliverAnswer(terminals: TerminalManager, messages: AnswerLedger, ask: AnswerToDeliver): Promise<DeliveredAnswer> {
  const terminal = terminals.summary(ask.taskId);
  let entered = false;
  const sent = (result: DeliveredAnswer['result']) => () => {
    messages.recordResumeOutcome(ask.id, result);
    entered = true;
  };
  try {
    if (terminal && terminal.state !== 'ENDED') {
      if (terminal.state === 'PAUSED') terminals.unpause(ask.taskId);
      await submitReply(terminals, ask.taskId, ask.reply, { onEnter: sent('already_running') });
      return { executionId: terminal.executionId, result: 'already_running' };
    }
    const executionId = (await terminals.resume(ask.taskId, {})).id;
    await submitReply(terminals, ask.taskId, ask.reply, { waitForQuietMs: 700, onEnter: sent('resumed') });
    return { executionId, result: 'resumed' };
  } catch (error) {
    // Once Enter went out the reply is the task's; before that, the question waits again.
    if (!entered) messages.reopen(ask.id);
    throw error;
  }
}

/**
 * Crash-safety tests only: SVC_TEST_CRASH_AT=reply-to-ask:answered makes `svc serve` SIGKILL itself
 * once a reply has answered the ask, before anything is typed (as `kill -9` would).
 */
export function answerCrashPoint(point: 'reply-to-ask:answered'): void {
  if (process.env.SVC_TEST_CRASH_AT !== point) return;
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
