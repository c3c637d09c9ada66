import * as pty from 'node-pty';
import { SvcError } from '@svc-org/ai-sdk';
import { childEnv, isGatedSessionProcess, withoutHostOwnedEnv, type GatedSessionProcess } from '../../platform/processes/index.js';

export interface PtySpec {
  /** What starts: only a session process the session gate checked (`gateSessionProcess`). */
  session: GatedSessionProcess;
  /** The connection's environment (the person's settings); its SVC_* keys are left out. */
  connectionEnv?: Record<string, string>;
  /** The host's own keys for this terminal, applied last. */
  hostEnvPatch?: Record<string, string>;
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
 * Starts a gated session process in a real PTY. node-pty execs the file directly with the argument
 * array (no shell), as the session leader of its own process group. Anything that did not come out
 * of the session gate is refused: this is the only place a terminal's process starts.
 */
export function spawnPty(spec: PtySpec, hostEnv: NodeJS.ProcessEnv = process.env): pty.IPty {
  const { session } = spec;
  if (!isGatedSessionProcess(session)) {
    throw new SvcError({ code: 'session_not_gated', message: 'a terminal starts only a session process the session gate checked' });
  }
  try {
    return pty.spawn(session.command, [...session.args], {
      name: hostEnv.TERM && hostEnv.TERM !== 'dumb' ? hostEnv.TERM : 'xterm-256color',
      cols: spec.cols ?? 80,
      rows: spec.rows ?? 24,
      cwd: session.cwd,
      env: ptyEnv(hostEnv, withoutHostOwnedEnv(spec.connectionEnv), session.envPatch, spec.hostEnvPatch),
      ...(spec.binary ? { encoding: null } : {}),
    });
  } catch (error) {
    throw new SvcError({ code: 'spawn_failed', message: `could not start ${session.command} in a terminal: ${(error as Error).message}` });
  }
}
