import {
  CliProcess,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type CliStreamItem,
  type ModelInfo,
  type QueryRequest,
  type SessionProcess,
  type SessionRequest,
} from '@svc-org/ai-sdk';
import { buildEnvPatch } from './build-env-patch.js';
import { buildQueryArgs } from './build-query-args.js';
import { buildSessionProcess } from './build-session-process.js';
import { listGeminiModels } from './gemini-models.js';
import { GeminiHooksIntegration } from './integrations/gemini-hooks-integration.js';
import { GeminiMcpIntegration } from './integrations/gemini-mcp-integration.js';
import { GeminiSkillsIntegration } from './integrations/gemini-skills-integration.js';
import { mapJsonOutput } from './map-json-output.js';
import { readProviderSettings, secretsOf } from './provider-settings.js';
import { StreamJsonMapper } from './stream-json-mapper.js';

// Only the end of stderr matters for an error message; the start is startup notices.
const STDERR_KEEP = 64 * 1024;

/** Gemini CLI (`gemini`): `-o json` for generate(), `-o stream-json` for stream(). */
export class GeminiCliAdapter implements CliAdapter {
  readonly mcp = new GeminiMcpIntegration();
  readonly hooks = new GeminiHooksIntegration();
  readonly skills = new GeminiSkillsIntegration();

  async buildSessionProcess(request: SessionRequest, ctx: AdapterContext): Promise<SessionProcess> {
    return buildSessionProcess(request, await readProviderSettings(ctx), ctx.cli);
  }

  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const settings = await readProviderSettings(ctx);
    const { args, warnings } = buildQueryArgs(request, settings, 'json');
    if (ctx.signal.aborted) return { text: '', toolCalls: [], toolResults: [], finishReason: 'cancelled', warnings };
    const run = await ctx.host.process.run(
      // stdin is closed at once: headless, the CLI waits up to 500 ms for piped input otherwise.
      { command: ctx.cli.command, args, cwd: request.cwd, envPatch: buildEnvPatch(settings), stdin: '' },
      { signal: ctx.signal },
    );
    const result = mapJsonOutput({ stdout: run.stdout, stderr: run.stderr, exit: run, aborted: ctx.signal.aborted }, secretsOf(settings));
    result.warnings.unshift(...warnings);
    return result;
  }

  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem> {
    const settings = await readProviderSettings(ctx);
    const { args, warnings } = buildQueryArgs(request, settings, 'stream-json');
    const mapper = new StreamJsonMapper(secretsOf(settings));
    mapper.warnings.push(...warnings);
    try {
      if (ctx.signal.aborted) {
        yield { type: 'finish', finishReason: 'cancelled' };
        return;
      }
      // CliProcess kills the CLI when the consumer stops early.
      const run = await CliProcess.start(
        ctx,
        { command: ctx.cli.command, args, cwd: request.cwd, envPatch: buildEnvPatch(settings), stdin: '' },
        { stderr: { limit: STDERR_KEEP } },
      );
      // The events of one chunk of output go as one batch: one await for the consumer, not one per event.
      // The lines are mapped outside this generator: a loop inside an async generator is never optimized.
      for await (const lines of run.lineBatches()) {
        const events = mapper.pushLines(lines, []);
        if (events.length > 0) yield events;
      }
      const exit = await run.wait();
      yield mapper.end({ exit, stderr: exit.stderr.text(), aborted: exit.endedBy === 'cancelled' || exit.endedBy === 'unloaded' });
    } finally {
      // A stream has no warning event: what it could not map goes to the (redacted) host log.
      for (const warning of mapper.warnings) ctx.host.log.warn(`gemini-cli stream: ${warning}`);
    }
  }

  async models(ctx: AdapterContext): Promise<ModelInfo[]> {
    return listGeminiModels((await readProviderSettings(ctx)).model);
  }
}
