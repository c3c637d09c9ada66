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

/** The terminal type a task terminal announces: the service's own, unless it has none worth the name. */
export function terminalName(hostEnv: NodeJS.ProcessEnv): string {
  return hostEnv.TERM && hostEnv.TERM !== 'dumb' ? hostEnv.TERM : 'xterm-256color';
}

/** What node-pty is given for a terminal: the command, its arguments, folder, environment and size. */
export interface PtyLaunch {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  name: string;
  cols: number;
  rows: number;
}

/**
 * What a gated session process starts as, in a PTY here or in the terminal holder. Anything that
 * did not come out of the session gate is refused: every terminal's process starts through this.
 */
export function ptyLaunch(spec: PtySpec, hostEnv: NodeJS.ProcessEnv = process.env): PtyLaunch {
  const { session } = spec;
  if (!isGatedSessionProcess(session)) {
    throw new SvcError({ code: 'session_not_gated', message: 'a terminal starts only a session process the session gate checked' });
  }
  return {
    command: session.command,
    args: [...session.args],
    cwd: session.cwd,
    env: ptyEnv(hostEnv, withoutHostOwnedEnv(spec.connectionEnv), session.envPatch, spec.hostEnvPatch),
    name: terminalName(hostEnv),
    cols: spec.cols ?? 80,
    rows: spec.rows ?? 24,
  };
}

/**
 * Starts a gated session process in a real PTY. node-pty execs the file directly with the argument
 * array (no shell), as the session leader of its own process group.
 */
export function spawnPty(spec: PtySpec, hostEnv: NodeJS.ProcessEnv = process.env): pty.IPty {
  const launch = ptyLaunch(spec, hostEnv);
  try {
    return pty.spawn(launch.command, launch.args, {
      name: launch.name,
      cols: launch.cols,
      rows: launch.rows,
      cwd: launch.cwd,
      env: launch.env,
      ...(spec.binary ? { encoding: null } : {}),
    });
  } catch (error) {
    throw new SvcError({ code: 'spawn_failed', message: `could not start ${launch.command} in a terminal: ${(error as Error).message}` });
  }
}
