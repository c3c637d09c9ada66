// The task's live PTY in the page: output streamed as raw bytes from the service (an open stream
// counts as a person attached, which keeps the terminal's keepalive running), keystrokes and
// resizes sent back. The scrollback the service kept is replayed first.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { request } from '../api.js';
import type * as op from '../operations.js';

export function TerminalView({ taskId, executionId, onEnded }: { taskId: number; executionId: number; onEnded?(): void }) {
  const ended = useRef(onEnded);
  ended.current = onEnded;
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'connecting' | 'live' | 'ended' | 'error'>('connecting');
  // Why the box shows nothing, when it does (an ended terminal whose output the service no longer holds).
  const [emptyBecause, setEmptyBecause] = useState<string>();
  useEffect(() => {
    const term = new Terminal({ convertEol: false, cursorBlink: true, fontSize: 13, scrollback: 5000, screenReaderMode: false });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current!);
    const abort = new AbortController();
    const resize = () => {
      try {
        fit.fit();
      } catch {
        return;
      }
      request<typeof op.resizeTaskTerminal>('POST /api/internal/terminal/:taskId/resize', { taskId, cols: term.cols, rows: term.rows }).catch(() => undefined);
    };
    const observer = new ResizeObserver(() => resize());
    observer.observe(host.current!);
    const input = sendKeystrokes(term, taskId, abort.signal);
    const showEnded = async () => {
      const shown = await replayEnded(term, taskId, abort.signal);
      if (abort.signal.aborted) return;
      if (shown === 0) setEmptyBecause('This terminal ended and printed nothing the service still holds (its output is kept only while the service runs). Resume the task to continue.');
      setState('ended');
    };
    const onLive = () => {
      setState('live');
      resize();
      term.focus();
    };
    followStream(term, taskId, abort.signal, onLive)
      .then(async (end) => {
        if (end === 'not_running') return showEnded();
        setState(end);
        if (end === 'ended') ended.current?.();
      })
      .catch(() => {
        if (!abort.signal.aborted) setState('error');
      });
    return () => {
      abort.abort();
      observer.disconnect();
      input.dispose();
      term.dispose();
    };
  }, [taskId, executionId]);
  return (
    <div className="terminal-wrap">
      <div className="terminal-status" aria-live="polite">
        Terminal: <span className={`pill ${state}`}>{state}</span>
      </div>
      {emptyBecause ? <p className="muted terminal-empty">{emptyBecause}</p> : null}
      <div className="terminal" ref={host} data-testid="terminal" />
    </div>
  );
}

/** Keystrokes go out one request at a time, in order; what is typed meanwhile goes in the next one. */
function sendKeystrokes(term: Terminal, taskId: number, signal: AbortSignal): { dispose(): void } {
  let pending = '';
  let sending = false;
  const flush = async () => {
    sending = true;
    while (pending !== '' && !signal.aborted) {
      const data = pending;
      pending = '';
      await request<typeof op.sendTaskTerminalInput>('POST /api/internal/terminal/:taskId/input', { taskId, data }).catch(() => undefined);
    }
    sending = false;
  };
  return term.onData((data) => {
    pending += data;
    if (!sending) void flush();
  });
}

/** Writes what the service kept of an ended terminal; answers how many characters it showed. */
async function replayEnded(term: Terminal, taskId: number, signal: AbortSignal): Promise<number> {
  let shown = 0;
  try {
    let read = await request<typeof op.getTaskTerminalOutput>('GET /api/internal/terminal/:taskId/buffer', { taskId });
    for (;;) {
      term.write(read.data);
      shown += read.data.length;
      if (!read.more || signal.aborted) break;
      read = await request<typeof op.getTaskTerminalOutput>('GET /api/internal/terminal/:taskId/buffer', { taskId, cursor: read.cursor });
    }
  } catch {
    // No terminal of this task in this service run (it ended before the service last started).
  }
  return shown;
}

/**
 * Writes the live output until the terminal ends. The output stream is a plain route (raw bytes, not
 * an operation's answer), so it is fetched here by hand; `not_running` when the terminal had ended.
 */
async function followStream(term: Terminal, taskId: number, signal: AbortSignal, onLive: () => void): Promise<'ended' | 'error' | 'not_running'> {
  const response = await fetch(`/api/internal/terminal/${taskId}/stream?cursor=0`, { credentials: 'same-origin', signal });
  if (response.status === 409 || response.status === 404) return 'not_running';
  if (!response.ok || !response.body) return 'error';
  onLive();
  const reader = response.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    term.write(value);
  }
  return 'ended';
}
