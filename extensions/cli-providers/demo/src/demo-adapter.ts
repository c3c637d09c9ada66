import { fileURLToPath } from 'node:url';
import {
  collectCliQueryStream,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type QueryRequest,
  type SessionAttachments,
  type SessionProcess,
  type SessionRequest,
  type UnsupportedAttachment,
} from '@svc-org/ai-sdk';

/** The file of the run's folder the agent reads its MCP servers and hooks from (written 0600 by the host). */
export const RUN_FILE = 'demo-run.json';

/** The agent itself: a plain Node script of this package, run by the Node the host resolved as the CLI. */
export const AGENT_SCRIPT = fileURLToPath(new URL('../bin/svc-demo-agent.mjs', import.meta.url));

/** What the agent reads from its run file. */
export interface DemoRunFile {
  mcpServers: NonNullable<SessionAttachments['mcpServers']>;
  hooks: { stop?: string[]; promptSubmit?: string[] };
  /** Handed over like any CLI's directive; a script reads it and goes on with its script. */
  directive?: string;
}

/**
 * The demo agent: a scripted CLI (`bin/svc-demo-agent.mjs`) that needs no account, model or network.
 * The MCP servers and hooks travel in a file of the run's private folder, not in its arguments, so
 * the task's credential never shows in a process listing.
 */
export class DemoAdapter implements CliAdapter {
  buildSessionProcess(request: SessionRequest, ctx: AdapterContext): SessionProcess {
    const args = [AGENT_SCRIPT];
    if (request.mode === 'resume') args.push(...(request.sessionId ? ['--resume', request.sessionId] : ['--continue']));
    const unsupported: UnsupportedAttachment[] = [];
    const files: Array<{ name: string; content: string }> = [];
    const attachments = request.attachments;
    if (attachments && (attachments.mcpServers?.length || attachments.hooks || attachments.directive)) {
      if (request.runtimeDir) {
        const run: DemoRunFile = {
          mcpServers: attachments.mcpServers ?? [],
          hooks: {
            ...(attachments.hooks?.stop ? { stop: attachments.hooks.stop.command } : {}),
            ...(attachments.hooks?.promptSubmit ? { promptSubmit: attachments.hooks.promptSubmit.command } : {}),
          },
          ...(attachments.directive ? { directive: attachments.directive } : {}),
        };
        files.push({ name: RUN_FILE, content: `${JSON.stringify(run, null, 2)}\n` });
        args.push('--run-file', `${request.runtimeDir.replace(/\/+$/, '')}/${RUN_FILE}`);
      } else {
        const reason = 'the host gave no run folder for the file the demo agent reads its attachments from';
        if (attachments.mcpServers?.length) unsupported.push({ kind: 'mcpServers', reason });
        if (attachments.hooks?.stop) unsupported.push({ kind: 'stopHook', reason });
        if (attachments.hooks?.promptSubmit) unsupported.push({ kind: 'promptSubmitHook', reason });
        if (attachments.directive) unsupported.push({ kind: 'directive', reason });
      }
    }
    // The agent asks through ask_human, never through a question tool of its own: nothing for the ladder hook to judge.
    args.push(...(request.baseArgs ?? []));
    return {
      command: ctx.cli.command,
      args,
      cwd: request.cwd,
      ...(files.length > 0 ? { files } : {}),
      ...(unsupported.length > 0 ? { unsupportedAttachments: unsupported } : {}),
    };
  }

  /** A query gets a fixed answer: the demo agent only works in task terminals. */
  async generate(_request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    if (ctx.signal.aborted) return collectCliQueryStream([{ type: 'finish', finishReason: 'cancelled' }]);
    return collectCliQueryStream([
      { type: 'text', text: 'The svc demo agent has no model: it answers no queries. Start it on a task instead: svc task start <task id> --connection <demo connection>.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  }
}
