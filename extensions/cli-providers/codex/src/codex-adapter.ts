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
import { runCodexExec } from './exec/run-codex-exec.js';
import { CodexHooksIntegration } from './hooks/codex-hooks-integration.js';
import { CodexMcpIntegration } from './mcp/codex-mcp-integration.js';
import { listCodexModels } from './models/list-codex-models.js';
import { buildSessionArgs } from './session/build-session-args.js';
import { codexEnvPatch } from './settings/codex-env-patch.js';
import { readCodexSettings } from './settings/codex-settings.js';
import { CodexSkillsIntegration } from './skills/codex-skills-integration.js';

/** The Codex CLI as a provider: the TUI for sessions, `codex exec --json` for queries. */
export class CodexAdapter implements CliAdapter {
  readonly mcp = new CodexMcpIntegration();
  readonly hooks = new CodexHooksIntegration();
  readonly skills = new CodexSkillsIntegration();

  async buildSessionProcess(request: SessionRequest, ctx: AdapterContext): Promise<SessionProcess> {
    const settings = await readCodexSettings(ctx.host);
    return {
      command: ctx.cli.command,
      args: buildSessionArgs(request, settings),
      cwd: request.cwd,
      envPatch: codexEnvPatch(settings),
    };
  }

  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const warnings: string[] = [];
    const result = await collectCliQueryStream(runCodexExec(request, ctx, (message) => warnings.push(message)));
    result.warnings.push(...warnings);
    return result;
  }

  /** Canonical events as they happen; warnings (no canonical event type) go to the host log. */
  stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem> {
    return runCodexExec(request, ctx, (message) => ctx.host.log.warn('codex warning', { message }));
  }

  models(ctx: AdapterContext): Promise<ModelInfo[]> {
    return listCodexModels(ctx);
  }
}
