import type { Readable } from 'node:stream';
import { DescriptorOutput, type CliStream } from './descriptor-output.js';

export type { CliStream };

/**
 * Where a command writes: a stream, or svc's own stdout or stderr written to its descriptor where
 * that is a file or a pipe (no stream is made for a short command's few lines). `write` is all most
 * commands need; code that needs a stream itself takes `streamOf(output)`.
 */
export type CliOutput = CliStream | DescriptorOutput;

/** What a command talks to; tests and the real terminal both pass these. */
export interface CliIo {
  /** svc's own stdin is made when first read: a command that reads none never makes it. */
  readonly stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => void };
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The output as a stream (a protocol on stdio, a prompt, a terminal followed): its later writes go through it too, in order. */
export function streamOf(output: CliOutput): CliStream {
  return output instanceof DescriptorOutput ? output.stream() : output;
}
