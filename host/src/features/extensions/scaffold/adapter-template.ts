// src/<name>-adapter.ts of a scaffold: a working adapter for a CLI that takes `--prompt <text>` and
// prints plain text, with every place an author adapts to the real CLI marked `ADAPT`.
import type { ScaffoldNames } from './scaffold-names.js';

// long: one template literal: the generated adapter, read as it will be written
export function adapterTemplate(names: ScaffoldNames): string {
  const { adapterClass, command } = names;
  return `// Adapts the \`${command}\` command-line tool to svc: terminal sessions run it interactively, queries
// run it headless once per prompt. Places marked ADAPT are where your CLI's real flags and output go.
import {
  CliProcess,
  describeCliExit,
  ErrorCodes,
  StreamingCliAdapter,
  type AdapterContext,
  type CliStreamEvent,
  type QueryRequest,
  type SessionProcess,
  type SessionRequest,
} from '@svc-org/ai-sdk';

// Enough of the CLI's stderr for an error message to say why it failed, not so much that it floods.
const STDERR_TAIL_CHARS = 500;

// Settings from config.schema.json (such as \`model\`) reach an adapter through ctx.host.config.get<T>(),
// which needs the "config:provider" permission. To use them, add that permission to
// package.json#svc.permissions (users confirm it on \`svc ext enable\`), read them in stream(), and pass
// secrets through redactSecrets() before they go into a message.

export class ${adapterClass} extends StreamingCliAdapter {
  /**
   * A terminal session: svc runs this process in a PTY attached to the user's terminal, with
   * \`envPatch\` applied. Return a command and an argument array, never a shell command line. A
   * session is a spawn: it needs "process:spawn", and svc starts only ctx.cli.command (the CLI the
   * person confirmed) in request.cwd; variables such as NODE_OPTIONS or LD_PRELOAD are left out.
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
   * A headless query: run the CLI once and turn what it prints into canonical events as it prints
   * them. StreamingCliAdapter derives generate() from this. The stream always ends with exactly one
   * \`finish\`: \`stop\`, \`cancelled\` (the user cancelled; no error event), or \`error\` after an \`error\`
   * event (a failed run, or the deadline). Failures of the CLI are events, not throws, so what it
   * printed before failing is kept.
   */
  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent> {
    const args = [...(request.baseArgs ?? [])];
    // ADAPT: your CLI's headless flags. If it has a JSON (lines) output mode, ask for it here.
    if (request.model) args.push('--model', request.model);
    if (request.resume) args.push('--resume', request.resume);
    else if (request.continue) args.push('--continue');
    if (request.maxTurns !== undefined) ctx.host.log.warn(\`${command} takes no turn limit; maxTurns \${request.maxTurns} was ignored\`);
    args.push('--prompt', request.prompt);

    // svc owns the process: it applies the connection's environment, kills the process tree when the
    // call is cancelled or its deadline passes. CliProcess also kills it when the consumer stops early.
    // stdin is closed at once: many CLIs wait for the end of stdin before they answer.
    const run = await CliProcess.start(ctx, { command: ctx.cli.command, args, cwd: request.cwd, stdin: '' });
    let lines = 0;
    // ADAPT: this reads plain text, one line at a time. With a JSON output mode, parse each line here
    // and yield what it reports: session, usage (tokens), reasoning, tool-call and tool-result events.
    for await (const line of run.lines()) {
      yield { type: 'text', text: lines === 0 ? line : \`\\n\${line}\` };
      lines += 1;
    }
    const end = await run.wait();
    if (end.endedBy === 'cancelled' || end.endedBy === 'unloaded') {
      yield { type: 'finish', finishReason: 'cancelled' };
    } else if (end.endedBy === 'timeout') {
      yield { type: 'error', code: ErrorCodes.timeout, message: '${command} did not finish before the deadline' };
      yield { type: 'finish', finishReason: 'error' };
    } else if (end.exitCode !== 0) {
      yield { type: 'error', code: ErrorCodes.cliFailed, message: describeCliExit('${command}', end, end.stderr.tail(STDERR_TAIL_CHARS)) };
      yield { type: 'finish', finishReason: 'error' };
    } else {
      yield { type: 'finish', finishReason: 'stop' };
    }
  }
}
`;
}
