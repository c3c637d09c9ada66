import {
  readLines,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type CliStreamEvent,
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

  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent> {
    const settings = await readProviderSettings(ctx);
    const { args, warnings } = buildQueryArgs(request, settings, 'stream-json');
    const mapper = new StreamJsonMapper(secretsOf(settings));
    mapper.warnings.push(...warnings);
    try {
      if (ctx.signal.aborted) {
        yield { type: 'finish', finishReason: 'cancelled' };
        return;
      }
      const child = await ctx.host.process.spawn(
        { command: ctx.cli.command, args, cwd: request.cwd, envPatch: buildEnvPatch(settings), stdin: '' },
        { signal: ctx.signal },
      );
      let exited = false;
      const stderr = collectTail(child.stderr);
      try {
        for await (const line of readLines(child.stdout)) yield* mapper.push(line);
        const exit = await child.exited;
        exited = true;
        yield* mapper.end({ exit, stderr: await stderr, aborted: ctx.signal.aborted });
      } finally {
        // The consumer stopped early: do not leave the CLI running.
        if (!exited) await child.kill('SIGTERM').catch(() => undefined);
      }
    } finally {
      // A stream has no warning event: what it could not map goes to the (redacted) host log.
      for (const warning of mapper.warnings) ctx.host.log.warn(`gemini-cli stream: ${warning}`);
    }
  }

  async models(ctx: AdapterContext): Promise<ModelInfo[]> {
    return listGeminiModels((await readProviderSettings(ctx)).model);
  }
}

async function collectTail(chunks: AsyncIterable<string>): Promise<string> {
  let tail = '';
  for await (const chunk of chunks) {
    tail += chunk;
    if (tail.length > 2 * STDERR_KEEP) tail = tail.slice(-STDERR_KEEP);
  }
  return tail.length > STDERR_KEEP ? tail.slice(-STDERR_KEEP) : tail;
}
