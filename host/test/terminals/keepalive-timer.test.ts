import { describe, expect, test } from 'vitest';
import { KeepaliveTimer, type TimerClock } from '../../src/features/terminals/index.js';

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let next = 1;
  const clock: TimerClock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => timers.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at <= now) {
        timers.delete(id);
        timer.callback();
      }
    }
  };
  return { clock, advance };
}

describe('disconnect keepalive', () => {
  test('expires after the period when nobody is attached', () => {
    const { clock, advance } = manualClock();
    let expired = 0;
    const timer = new KeepaliveTimer(1000, () => expired++, clock);
    timer.run();
    advance(999);
    expect(expired).toBe(0);
    advance(1);
    expect(expired).toBe(1);
  });

  test('a hold suspends the countdown and keeps the time left', () => {
    const { clock, advance } = manualClock();
    let expired = 0;
    const timer = new KeepaliveTimer(1000, () => expired++, clock);
    timer.run();
    advance(600);
    timer.hold();
    advance(10_000);
    expect(expired).toBe(0);
    expect(timer.remainingMs).toBe(400);
    timer.run();
    advance(399);
    expect(expired).toBe(0);
    advance(1);
    expect(expired).toBe(1);
  });

  test('a reset gives back the full period', () => {
    const { clock, advance } = manualClock();
    let expired = 0;
    const timer = new KeepaliveTimer(1000, () => expired++, clock);
    timer.run();
    advance(900);
    timer.reset();
    timer.run();
    advance(900);
    expect(expired).toBe(0);
    advance(100);
    expect(expired).toBe(1);
  });
});
