import {
  collectCliQueryStream,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type CliStreamItem,
  type ModelInfo,
  type QueryRequest,
  type SessionProcess,
  type SessionRequest,
} from '@svc-org/ai-sdk';
import { createClaudeHooksIntegration } from './hooks/claude-hooks-integration.js';
import { createClaudeMcpIntegration } from './mcp/claude-mcp-integration.js';
import { listClaudeModels } from './models/list-claude-models.js';
import { runClaudeQuery } from './query/run-claude-query.js';
import { buildSessionArgs } from './session/build-session-args.js';
import { claudeEnvPatch } from './settings/claude-env-patch.js';
import { readSettings } from './settings/read-settings.js';
import { createClaudeSkillsIntegration } from './skills/claude-skills-integration.js';

/** The Claude Code adapter: the interactive CLI for sessions, `-p` stream-json for queries. */
export class ClaudeCodeAdapter implements CliAdapter {
  readonly mcp = createClaudeMcpIntegration();
  readonly hooks = createClaudeHooksIntegration();
  readonly skills = createClaudeSkillsIntegration();

  async buildSessionProcess(request: SessionRequest, ctx: AdapterContext): Promise<SessionProcess> {
    const settings = await readSettings(ctx);
    return {
      command: ctx.cli.command,
      args: buildSessionArgs(request, settings),
      cwd: request.cwd,
      envPatch: claudeEnvPatch(settings),
    };
  }

  /** One-shot: the same stream without partial deltas, aggregated; warnings land in the result. */
  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const warnings: string[] = [];
    const result = await collectCliQueryStream(
      runClaudeQuery(request, ctx, {
        partial: false,
        onWarning: (message) => {
          warnings.push(message);
          ctx.host.log.warn(message);
        },
      }),
    );
    result.warnings.push(...warnings);
    return result;
  }

  /** Streams text and reasoning as they arrive (`--include-partial-messages`), a chunk of output's events as one batch; warnings go to the host log. */
  stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem> {
    return runClaudeQuery(request, ctx, { partial: true, onWarning: (message) => ctx.host.log.warn(message) });
  }

  async models(ctx: AdapterContext): Promise<ModelInfo[]> {
    return listClaudeModels(await readSettings(ctx));
  }
}
