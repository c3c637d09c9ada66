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

  test('the tracker keeps no chunk: a caller may reuse its buffer, a switch that spans two chunks is still seen', () => {
    const tracker = new TurnTracker({ promptSubmit: true, stop: true });
    const reused = Buffer.alloc(32);
    reused.write('output\x1b[?2004');
    tracker.observeOutput(reused.subarray(0, 'output\x1b[?2004'.length));
    reused.fill('x');
    reused.write('h> ');
    tracker.observeOutput(reused.subarray(0, 3));
    expect(tracker.bracketedPaste).toBe(true);
    reused.write('\x1b[?20');
    tracker.observeOutput(reused.subarray(0, 5));
    reused.write('04l');
    tracker.observeOutput(reused.subarray(0, 3));
    expect(tracker.bracketedPaste).toBe(false);
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
