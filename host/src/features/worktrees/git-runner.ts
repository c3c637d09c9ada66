// The system `git`, run through the host's process supervisor: argument arrays only, no shell, a
// timeout, and an environment that never asks a person for anything.
import { SvcError } from '@svc-org/ai-sdk';
import { childEnv, ProcessSupervisor } from '../../platform/processes/index.js';

/** `merge-tree --write-tree` (the overlap check and the merge) arrived in git 2.38. */
export const MIN_GIT_VERSION = [2, 38] as const;

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface GitRunOptions {
  /** Exit codes that are answers, not failures (`merge-tree` says 1 for "conflicts"). */
  okCodes?: readonly number[];
  env?: Record<string, string>;
  timeoutMs?: number;
  stdin?: string;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export class GitRunner {
  private readonly supervisor = new ProcessSupervisor();
  private checked: Promise<void> | undefined;

  constructor(
    private readonly hostEnv: NodeJS.ProcessEnv = process.env,
    private readonly command = 'git',
  ) {}

  /** Refuses clearly when git is missing or older than MIN_GIT_VERSION; asked once per runner. */
  ensureUsable(): Promise<void> {
    this.checked ??= this.raw(['--version'], process.cwd()).then(
      (result) => {
        const match = /git version (\d+)\.(\d+)/.exec(result.stdout);
        const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
        if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
          throw new SvcError({
            code: 'git_too_old',
            message: `${result.stdout.trim() || 'git'} is older than ${MIN_GIT_VERSION.join('.')}, which task worktrees need (merge-tree --write-tree)`,
            details: { fix: `install git ${MIN_GIT_VERSION.join('.')} or newer, or set the project's isolation to none` },
          });
        }
      },
      (error: unknown) => {
        throw new SvcError({
          code: 'git_missing',
          message: `git could not be run: ${SvcError.hasCode(error) ? error.message : String(error)}`,
          details: { fix: "install git and put it on the service's PATH, or set the project's isolation to none" },
        });
      },
    );
    this.checked.catch(() => (this.checked = undefined));
    return this.checked;
  }

  /** Runs git in `cwd`; a non-zero exit outside `okCodes` is a `git_failed` error with git's last line. */
  async run(args: string[], cwd: string, options: GitRunOptions = {}): Promise<GitResult> {
    await this.ensureUsable();
    const result = await this.raw(args, cwd, options);
    if (result.exitCode !== 0 && !(options.okCodes ?? []).includes(result.exitCode)) {
      throw new SvcError({
        code: 'git_failed',
        message: `git ${args[0]} failed: ${lastLine(result.stderr) || lastLine(result.stdout) || `exit ${result.exitCode}`}`,
        details: { command: `git ${args.slice(0, 3).join(' ')}`, exitCode: result.exitCode },
      });
    }
    return result;
  }

  /** The trimmed stdout of a command that must succeed. */
  async text(args: string[], cwd: string, options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, cwd, options)).stdout.trim();
  }

  private async raw(args: string[], cwd: string, options: GitRunOptions = {}): Promise<GitResult> {
    let stdout = '';
    let stderr = '';
    const child = this.supervisor.spawn(
      {
        command: this.command,
        args,
        cwd,
        // No pager, no prompt, no editor, no locale surprises in the output we parse.
        env: childEnv(this.hostEnv, { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EDITOR: 'true', LC_ALL: 'C' }, options.env),
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      },
      {
        onData: (stream, text) => {
          if (stream === 'stdout') stdout += text;
          else stderr += text;
        },
        onEnd: () => undefined,
        onExit: () => undefined,
      },
    );
    await child.started;
    const exit = await child.exited;
    if (exit.killedBy === 'timeout') {
      throw new SvcError({ code: 'timeout', message: `git ${args[0]} took longer than ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s` });
    }
    return { stdout, stderr, exitCode: exit.exitCode ?? 128 };
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim().slice(0, 300) ?? '';
}
