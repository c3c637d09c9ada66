// Test hook for crash safety: SVC_TEST_CRASH_AT=<point> makes the process SIGKILL itself when a catalog
// operation reaches that point, exactly like `kill -9` from outside. Without the variable (or with a
// value that names no point) the hook does nothing. Only tests set it.
export const CRASH_POINT_ENV = 'SVC_TEST_CRASH_AT';

export const CRASH_POINTS = [
  // The journal row is written; nothing else has happened.
  'install:journaled',
  // Part of the artifact has been received into staging.
  'install:downloading',
  // Downloaded, verified, extracted and preflighted in staging; the store is untouched.
  'install:staged',
  // Renamed into the store; the database does not know it yet.
  'install:moved',
  // Inside the switch transaction, before COMMIT.
  'install:in-transaction',
  // Committed; staging not yet removed.
  'install:committed',
  'update:journaled',
  'update:downloading',
  'update:staged',
  'update:moved',
  'update:in-transaction',
  // Committed; staging and versions no longer referenced not yet removed.
  'update:committed',
  'rollback:journaled',
  'rollback:in-transaction',
  'rollback:committed',
  'uninstall:journaled',
  'uninstall:in-transaction',
  // Committed; the store folder not yet removed.
  'uninstall:committed',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];
export type CrashHook = (point: CrashPoint) => void;

export function createCrashHook(env: NodeJS.ProcessEnv): CrashHook {
  const wanted = env[CRASH_POINT_ENV];
  if (wanted === undefined || !(CRASH_POINTS as readonly string[]).includes(wanted)) return () => undefined;
  return (point) => {
    if (point !== wanted) return;
    process.kill(process.pid, 'SIGKILL');
    // SIGKILL to oneself is delivered at once; block so that not one more statement runs meanwhile.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  };
}
