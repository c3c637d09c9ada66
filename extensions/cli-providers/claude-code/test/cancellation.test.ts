import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { readRecording } from './support/recordings.js';

// The real CLI printed only its init line while the model stalled (stream-stall-cancelled).
const initLine = () => {
  const stdout = readRecording('stream-stall-cancelled').stdout;
  return stdout.slice(0, stdout.indexOf('\n') + 1);
};

function hangingHost() {
  return createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout: initLine(), hang: true }) });
}

describe('cancellation', () => {
  test('aborting a stream mid-way ends it with finish "cancelled" and no error', async () => {
    const host = hangingHost();
    const controller = new AbortController();
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!({ prompt: 'Write a long story.', cwd: '/w' }, host.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'session') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: 'f81518c6-be78-4dfb-840b-04364964ad04' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('aborting generate() returns what arrived, finished as "cancelled"', async () => {
    const host = hangingHost();
    const controller = new AbortController();
    const adapter = await svcCliPlugin.createAdapter();
    const pending = adapter.generate({ prompt: 'Write a long story.', cwd: '/w' }, host.context(controller.signal));
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toEqual({
      text: '',
      toolCalls: [],
      toolResults: [],
      sessionId: 'f81518c6-be78-4dfb-840b-04364964ad04',
      finishReason: 'cancelled',
      warnings: [],
    });
  });
});
