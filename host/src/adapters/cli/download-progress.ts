// How `svc ext install|update` report progress: on a terminal a bar redrawn in place while the
// artifact downloads; otherwise (a pipe, a log, CI) plain lines only, one per step.
import type { DownloadProgress } from '../../features/extensions/install/index.js';
import type { CliOutput } from './cli-io.js';

const BAR_WIDTH = 30;
/** Redraws at most this often; a fast loopback download would otherwise flood the terminal. */
const REDRAW_MS = 50;

export interface ProgressReporter {
  onStep(line: string): void;
  onProgress(progress: DownloadProgress): void;
}

/** Reports on `out`: stdout, or stderr where stdout carries JSON. */
export function createProgressReporter(out: CliOutput): ProgressReporter {
  const tty = out.isTTY === true;
  let drawn = false;
  let lastDraw = 0;
  const clear = () => {
    if (drawn) out.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    onStep(line) {
      clear();
      out.write(`${line}\n`);
    },
    onProgress({ receivedBytes, totalBytes }) {
      if (!tty) return;
      const now = Date.now();
      const done = receivedBytes >= totalBytes;
      if (!done && now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      const ratio = totalBytes > 0 ? Math.min(1, receivedBytes / totalBytes) : 1;
      const filled = Math.round(ratio * BAR_WIDTH);
      out.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%  ${formatBytes(receivedBytes)} / ${formatBytes(totalBytes)}`);
      drawn = true;
    },
  };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
