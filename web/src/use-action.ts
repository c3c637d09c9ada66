import { useCallback, useState } from 'react';
import { ApiError } from './api.js';

/** Runs one user action at a time, keeping its error to show beside the control that started it. */
export function useAction(): { busy: boolean; error: ApiError | undefined; run(action: () => Promise<unknown>): Promise<boolean>; clear(): void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { code: 'internal', message: String(failure) }));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}
