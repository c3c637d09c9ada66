// Test hook: SVC_TEST_HOLD_START_MS=<n> makes `svc serve` hold a task's start once its terminal runs,
// before it answers, until the caller cancels or n milliseconds pass. A real start is over in a few
// milliseconds, often before a client's cancel can travel back; with the hold, a test cancels a start
// that is surely under way. Without the variable it does nothing.
export async function holdStartForTest(signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const ms = Number(env.SVC_TEST_HOLD_START_MS);
  if (!Number.isFinite(ms) || ms <= 0 || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
