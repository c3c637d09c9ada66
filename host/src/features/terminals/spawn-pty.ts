import * as pty from 'node-pty';
import { SvcError } from '@svc-org/ai-sdk';
import { childEnv } from '../../platform/processes/index.js';

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
 * Variables by which CLIs detect a CI machine and turn headless: Gemini CLI, for one, answers
 * `CI=true` or `GITHUB_ACTIONS=true` with "No input provided via stdin" and never shows its
 * prompt. A task terminal is interactive by definition, so the service's own CI markers stay out
 * of it; a connection that sets one on purpose still gets it.
 */
const CI_MARKERS = /^(CI|CI_.+|CONTINUOUS_INTEGRATION|GITHUB_ACTIONS|BUILD_NUMBER|RUN_ID)$/;

/** The environment of a terminal's process: the host's (without CI markers), then the patches. */
export function ptyEnv(hostEnv: NodeJS.ProcessEnv, ...patches: Array<Record<string, string> | undefined>): Record<string, string> {
  const interactive = Object.fromEntries(Object.entries(hostEnv).filter(([key]) => !CI_MARKERS.test(key)));
  return childEnv(interactive, ...patches);
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
      env: ptyEnv(hostEnv, spec.connectionEnv, spec.envPatch),
      ...(spec.binary ? { encoding: null } : {}),
    });
  } catch (error) {
    throw new SvcError({ code: 'spawn_failed', message: `could not start ${spec.command} in a terminal: ${(error as Error).message}` });
  }
}
