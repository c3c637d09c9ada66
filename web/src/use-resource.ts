import { useCallback, useEffect, useState } from 'react';
import { ApiError } from './api.js';
import { useLive } from './live.js';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads `load()` now, again when `deps` change, and whenever one of `topics` changes live. */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[], topics: readonly string[] = []): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(failure instanceof ApiError ? failure : new ApiError(0, { code: 'network', message: String(failure) }));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  useLive(topics, reload);
  return { data, error, loading, reload };
}
