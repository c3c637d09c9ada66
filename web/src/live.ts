// One EventSource for the page: the service publishes a topic per change (`tasks`, `harness`,
// `extensions`, `terminals`, `db` for writes by other processes); pages refetch what they show.
import { useEffect, useRef } from 'react';

type Listener = (topic: string) => void;
const listeners = new Set<Listener>();
let source: EventSource | undefined;

function ensureSource(): void {
  if (source) return;
  source = new EventSource('/api/events');
  // Changes made while the stream was not yet open (or was reconnecting) are not replayed: every
  // page refetches when it opens, so nothing that happened in between is missed.
  source.addEventListener('open', () => {
    for (const listener of listeners) listener('*');
  });
  source.addEventListener('change', (event) => {
    // A server-sent event of GET /api/events (a plain route, not an operation): typed here.
    const { topic } = JSON.parse((event as MessageEvent<string>).data) as { topic: string };
    for (const listener of listeners) listener(topic);
  });
}

/** Calls `onChange` when one of `topics` (or a write by another process) changes. */
export function useLive(topics: readonly string[], onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  const key = topics.join(',');
  useEffect(() => {
    ensureSource();
    // `db`: a write by another process; `operations`: an operation forwarded over the localhost
    // bridge (from `svc mcp` or the CLI), which may change anything.
    const wanted = new Set([...key.split(','), 'db', 'operations']);
    const listener: Listener = (topic) => {
      if (topic === '*' || wanted.has(topic)) latest.current();
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, [key]);
}
