import type { Readable, Writable } from 'node:stream';

/** The streams a command talks to; tests and the real terminal both pass these. */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => void };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number; on?: Writable['on'] };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}
