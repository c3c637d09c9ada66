import { SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '@svc-org/host/platform/logging';
import type { TerminalManager } from '@svc-org/host/features/terminals';
import { deliverAnswer } from './deliver-answer.js';
import type { MessageStore } from './message-store.js';

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
