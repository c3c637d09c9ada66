// The project's set-up command, run once in a fresh task worktree before the CLI starts (through
// the process supervisor, with the user's shell syntax), its output kept for the task's terminal.
import { childEnv, ProcessSupervisor } from '../../platform/processes/index.js';

const SETUP_TIMEOUT_MS = 10 * 60_000;
const MAX_OUTPUT_CHARS = 64 * 1024;

export async function runSetupCommand(command: string, cwd: string, hostEnv: NodeJS.ProcessEnv = process.env): Promise<{ exitCode: number; output: string }> {
  let output = '';
  const child = new ProcessSupervisor().spawn(
    { command: '/bin/sh', args: ['-c', command], cwd, env: childEnv(hostEnv), timeoutMs: SETUP_TIMEOUT_MS },
    {
      onData: (_stream, text) => {
        output = (output + text).slice(-MAX_OUTPUT_CHARS);
      },
      onEnd: () => undefined,
      onExit: () => undefined,
    },
  );
  await child.started;
  const exit = await child.exited;
  if (exit.killedBy === 'timeout') output += `\n[set-up command stopped after ${SETUP_TIMEOUT_MS / 60_000} minutes]\n`;
  return { exitCode: exit.exitCode ?? 1, output };
}
