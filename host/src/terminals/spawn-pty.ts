import * as pty from 'node-pty';
import { SvcError } from '@svc-org/ai-sdk';
import { childEnv } from '../processes/index.js';

export interface PtySpec {
  command: string;
  args: string[];
  cwd: string;
  envPatch?: Record<string, string>;
  connectionEnv?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Raw bytes from onData (no UTF-8 decoding in node-pty): the terminal buffer stores bytes anyway. */
  binary?: boolean;
}

/**
 * Starts a validated session process in a real PTY. node-pty execs the file directly with the
 * argument array (no shell), as the session leader of its own process group.
 */
export function spawnPty(spec: PtySpec, hostEnv: NodeJS.ProcessEnv = process.env): pty.IPty {
  try {
    return pty.spawn(spec.command, spec.args, {
      name: hostEnv.TERM && hostEnv.TERM !== 'dumb' ? hostEnv.TERM : 'xterm-256color',
      cols: spec.cols ?? 80,
      rows: spec.rows ?? 24,
      cwd: spec.cwd,
      env: childEnv(hostEnv, spec.connectionEnv, spec.envPatch),
      ...(spec.binary ? { encoding: null } : {}),
    });
  } catch (error) {
    throw new SvcError({ code: 'spawn_failed', message: `could not start ${spec.command} in a terminal: ${(error as Error).message}` });
  }
}
