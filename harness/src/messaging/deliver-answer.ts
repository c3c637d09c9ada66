import { SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../../host/src/logging/index.js';
import type { TerminalManager } from '../../../host/src/terminals/index.js';
import type { MessageStore } from './message-store.js';
import { submitReply } from './submit-reply.js';

export interface AnswerToDeliver {
  /** The ask (its message id), ANSWERED with `resume_outcome` = `delivering`. */
  id: number;
  taskId: number;
  reply: string;
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
export async function deliverAnswer(terminals: TerminalManager, messages: MessageStore, ask: AnswerToDeliver): Promise<DeliveredAnswer> {
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
 * On the service's start: every answer a killed service recorded but never typed is typed now, once,
 * in the order they came (the task's terminal died with that service, so its session is resumed
 * with the answer). One that cannot be typed reopens its question.
 */
export async function deliverUndeliveredAnswers(terminals: TerminalManager, messages: MessageStore, logger: Logger): Promise<void> {
  for (const ask of messages.undeliveredAnswers()) {
    try {
      const delivered = await deliverAnswer(terminals, messages, ask);
      logger.info('an answer recorded before the service stopped was typed into its task', { askId: ask.id, taskId: ask.taskId, ...delivered });
    } catch (error) {
      logger.warn('an answer recorded before the service stopped could not be typed; its question is open again', {
        askId: ask.id,
        taskId: ask.taskId,
        code: SvcError.isInstance(error) ? error.code : 'internal',
      });
    }
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
