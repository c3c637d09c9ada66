import type { CliIo } from './cli-io.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const paint = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/**
 * Colour on a terminal, none when the stream is piped or `NO_COLOR` is set (no-color.org) or the
 * terminal is `dumb`.
 */
export function styleFor(stream: CliIo['stdout'] | CliIo['stderr'], env: NodeJS.ProcessEnv): Style {
  const on = Boolean((stream as { isTTY?: boolean }).isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';
  if (!on) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain };
  return { bold: paint(1, 22), dim: paint(2, 22), red: paint(31, 39), green: paint(32, 39), yellow: paint(33, 39) };
}
