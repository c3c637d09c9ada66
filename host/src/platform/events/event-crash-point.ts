// Test hook for crash safety: SVC_TEST_CRASH_AT=<point> (the variable the catalog's crash points use)
// makes `svc serve` SIGKILL itself when its event worker reaches that point, exactly like `kill -9`
// from outside. Without the variable, or with a value that names no point here, it does nothing.
export const EVENT_CRASH_POINTS = [
  // Events are claimed (leased to this process); none of them is handled yet.
  'event:claimed',
  // One event's handler finished (its effects committed); the event is not marked done yet.
  'event:handled',
] as const;

export type EventCrashPoint = (typeof EVENT_CRASH_POINTS)[number];

export function createEventCrashHook(env: NodeJS.ProcessEnv): ((point: EventCrashPoint) => void) | undefined {
  const wanted = env.SVC_TEST_CRASH_AT;
  if (wanted === undefined || !(EVENT_CRASH_POINTS as readonly string[]).includes(wanted)) return undefined;
  return (point) => {
    if (point !== wanted) return;
    process.kill(process.pid, 'SIGKILL');
    // SIGKILL to oneself is delivered at once; block so that not one more statement runs meanwhile.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  };
}
