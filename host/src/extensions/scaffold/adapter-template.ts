// src/<name>-adapter.ts of a scaffold: a working adapter for a CLI that takes `--prompt <text>` and
// prints plain text, with every place an author adapts to the real CLI marked `ADAPT`.
import type { ScaffoldNames } from './scaffold-names.js';

export function adapterTemplate(names: ScaffoldNames): string {
  const { adapterClass, command } = names;
  return `// Adapts the \`${command}\` command-line tool to svc: terminal sessions run it interactively, queries
// run it headless once per prompt. Places marked ADAPT are where your CLI's real flags and output go.
import {
  BaseCliAdapter,
  type AdapterContext,
  type CliQueryResult,
  type QueryRequest,
  type SessionProcess,
  type SessionRequest,
} from '@svc-org/ai-sdk';

// Enough of the CLI's stderr for an error message to say why it failed, not so much that it floods.
const STDERR_TAIL_CHARS = 500;

// Settings from config.schema.json (such as \`model\`) reach an adapter through ctx.host.config.get(),
// which needs the "config:provider" permission. To use them, add that permission to
// package.json#svc.permissions (users confirm it on \`svc ext enable\`) and read them in generate().

export class ${adapterClass} extends BaseCliAdapter {
  /**
   * A terminal session: svc runs this process in a PTY attached to the user's terminal, with
   * \`envPatch\` applied. Return a command and an argument array, never a shell command line.
   */
  buildSessionProcess(request: SessionRequest, ctx: AdapterContext): SessionProcess {
    // ctx.cli.command is the executable svc found (a connection's override, \`command.default\`,
    // \`command.aliases\` or \`command.knownPaths\`); request.baseArgs are the connection's own arguments.
    const args = [...(request.baseArgs ?? [])];
    // ADAPT: your CLI's flags to choose a model and to resume a session (or the most recent one).
    if (request.model) args.push('--model', request.model);
    if (request.mode === 'resume') args.push(...(request.sessionId ? ['--resume', request.sessionId] : ['--continue']));
    return { command: ctx.cli.command, args, cwd: request.cwd, envPatch: {} };
  }

  /**
   * A headless query: run the CLI once and turn what it printed into the canonical result.
   * BaseCliAdapter derives stream() from this; override stream() if your CLI streams events.
   */
  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const warnings: string[] = [];
    const args = [...(request.baseArgs ?? [])];
    // ADAPT: your CLI's headless flags. If it has a JSON output mode, ask for it here.
    if (request.model) args.push('--model', request.model);
    if (request.resume) args.push('--resume', request.resume);
    else if (request.continue) args.push('--continue');
    if (request.maxTurns !== undefined) warnings.push(\`${command} takes no turn limit; maxTurns \${request.maxTurns} was ignored\`);
    args.push('--prompt', request.prompt);

    // svc owns the process: it applies the connection's environment, enforces the call's timeout and
    // kills the whole process tree when the call is cancelled.
    const run = await ctx.host.process.run({ command: ctx.cli.command, args, cwd: request.cwd }, { signal: ctx.signal });
    if (run.killedBy === 'cancelled') return { text: '', toolCalls: [], toolResults: [], finishReason: 'cancelled', warnings };
    if (run.killedBy !== undefined || run.exitCode !== 0) {
      const how = run.killedBy === 'timeout' ? 'timed out' : run.exitCode !== null ? \`exited with code \${run.exitCode}\` : \`was killed by \${run.signal}\`;
      const stderr = run.stderr.trim().slice(-STDERR_TAIL_CHARS);
      return {
        text: '',
        toolCalls: [],
        toolResults: [],
        finishReason: 'error',
        warnings,
        error: { code: run.killedBy === 'timeout' ? 'timeout' : 'cli_failed', message: \`${command} \${how}\${stderr ? \`: \${stderr}\` : ''}\` },
      };
    }
    // ADAPT: this reads plain text. With a JSON output mode, parse it here and fill in what it reports:
    // sessionId, usage (tokens), reasoning, toolCalls and toolResults, and the real finishReason.
    return { text: run.stdout.trimEnd(), toolCalls: [], toolResults: [], finishReason: 'stop', warnings };
  }
}
`;
}
