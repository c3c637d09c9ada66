import { describe, expect, test } from 'vitest';
import { TurnTracker } from '../../src/features/terminals/turn-tracker.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('TurnTracker', () => {
  test('the prompt is ready once bracketed paste is switched on, also when the sequence spans two chunks', () => {
    const tracker = new TurnTracker({ promptSubmit: true, stop: true });
    tracker.observeOutput(bytes('welcome\x1b[?20'));
    expect([tracker.bracketedPaste, tracker.turn]).toEqual([false, 'starting']);
    tracker.observeOutput(bytes('04h> '));
    expect([tracker.bracketedPaste, tracker.turn]).toEqual([true, 'idle']);
  });

  test('the last switch in a chunk wins: off after on is off', () => {
    const tracker = new TurnTracker({ promptSubmit: true, stop: true });
    tracker.observeOutput(bytes('\x1b[?2004h redraw \x1b[?2004l'));
    expect(tracker.bracketedPaste).toBe(false);
    tracker.observeOutput(bytes('\x1b[?2004l...\x1b[?2004h'));
    expect(tracker.bracketedPaste).toBe(true);
  });

  test('a submitted prompt makes the turn busy and wakes the waiter with its turn id; the stop hook makes it idle', async () => {
    const tracker = new TurnTracker({ promptSubmit: true, stop: true });
    tracker.observeOutput(bytes('\x1b[?2004h'));
    const next = tracker.nextSubmit(5000);
    tracker.promptSubmitted('turn-7');
    await expect(next).resolves.toEqual({ confirmed: true, turnId: 'turn-7' });
    expect(tracker.turn).toBe('busy');
    tracker.turnEnded();
    expect(tracker.turn).toBe('idle');
  });

  test('no prompt-submit report in time: not confirmed', async () => {
    const tracker = new TurnTracker({ promptSubmit: true, stop: true });
    await expect(tracker.nextSubmit(20)).resolves.toEqual({ confirmed: false });
  });

  test('a prompt that never shows fails with terminal_not_ready', async () => {
    const tracker = new TurnTracker({ promptSubmit: false, stop: false });
    await expect(tracker.ready(20, 9)).rejects.toMatchObject({ code: 'terminal_not_ready', details: { taskId: 9 } });
  });
});
