// The provider RPC's request shapes have one source: the schemas the host checks a call with. What an
// adapter is typed to receive (CliAdapter) and what the host sends (AdapterMethods) are checked equal
// here at compile time (`pnpm typecheck`), so a field on one side only does not compile.
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import {
  AdapterMethods,
  type AdapterContext,
  type AdapterMethodArgs,
  type AdapterMethodName,
  type AdapterMethodResult,
  type CliAdapter,
  type HooksIntegration,
  type IntegrationChange,
  type McpIntegration,
  type QueryRequest,
  type QueryRequestSchema,
  type SessionRequest,
  type SkillsIntegration,
} from '../src/index.js';

/** A method's parameters as an adapter declares them, without the trailing call context. */
type Received<F> = F extends (...args: [...infer A, AdapterContext]) => unknown ? A : never;

describe('the adapter methods and the CliAdapter interface', () => {
  test('the host checks each call with the schema the request types are inferred from, not a cast', () => {
    expectTypeOf<(typeof AdapterMethods)[AdapterMethodName]['args']>().toExtend<z.ZodTuple>();
    expectTypeOf(AdapterMethods.generate.args).toEqualTypeOf<z.ZodTuple<[typeof QueryRequestSchema], null>>();
    expectTypeOf<QueryRequest>().toEqualTypeOf<z.output<typeof QueryRequestSchema>>();
    expect(AdapterMethods.generate.args.def.items).toHaveLength(1);
  });

  test('each method receives exactly the arguments the host sends', () => {
    expectTypeOf<Received<NonNullable<CliAdapter['buildSessionProcess']>>>().toEqualTypeOf<AdapterMethodArgs<'buildSessionProcess'>>();
    expectTypeOf<Received<CliAdapter['generate']>>().toEqualTypeOf<AdapterMethodArgs<'generate'>>();
    expectTypeOf<Received<NonNullable<CliAdapter['stream']>>>().toEqualTypeOf<AdapterMethodArgs<'stream'>>();
    expectTypeOf<Received<NonNullable<CliAdapter['models']>>>().toEqualTypeOf<AdapterMethodArgs<'models'>>();
    expectTypeOf<Received<McpIntegration['inspect']>>().toEqualTypeOf<AdapterMethodArgs<'mcp.inspect'>>();
    expectTypeOf<Received<McpIntegration['install']>>().toEqualTypeOf<AdapterMethodArgs<'mcp.install'>>();
    expectTypeOf<Received<McpIntegration['uninstall']>>().toEqualTypeOf<AdapterMethodArgs<'mcp.uninstall'>>();
    expectTypeOf<Received<HooksIntegration['inspect']>>().toEqualTypeOf<AdapterMethodArgs<'hooks.inspect'>>();
    expectTypeOf<Received<HooksIntegration['install']>>().toEqualTypeOf<AdapterMethodArgs<'hooks.install'>>();
    expectTypeOf<Received<HooksIntegration['uninstall']>>().toEqualTypeOf<AdapterMethodArgs<'hooks.uninstall'>>();
    expectTypeOf<Received<SkillsIntegration['inspect']>>().toEqualTypeOf<AdapterMethodArgs<'skills.inspect'>>();
    expectTypeOf<Received<SkillsIntegration['install']>>().toEqualTypeOf<AdapterMethodArgs<'skills.install'>>();
    expectTypeOf<Received<SkillsIntegration['uninstall']>>().toEqualTypeOf<AdapterMethodArgs<'skills.uninstall'>>();
    // The check itself tells a difference: a field the schema does not have is not the same request.
    expectTypeOf<[QueryRequest & { extra?: string }]>().not.toEqualTypeOf<AdapterMethodArgs<'generate'>>();
    expect(Object.keys(AdapterMethods)).toHaveLength(13);
  });

  test('an install or uninstall answers the change record the host accepts', () => {
    expectTypeOf<Awaited<ReturnType<McpIntegration['install']>>>().toEqualTypeOf<IntegrationChange | void>();
    expectTypeOf<AdapterMethodResult<'mcp.install'>>().toEqualTypeOf<IntegrationChange | undefined>();
    const change: IntegrationChange = { configPath: '/home/me/.claude.json', changed: true, origin: 'svc' };
    expect(AdapterMethods['mcp.install'].result.parse(change)).toEqual(change);
  });

  test('every field of a request crosses the host check (none is dropped on the way)', () => {
    const session: Required<SessionRequest> = {
      mode: 'resume',
      sessionId: 's-1',
      cwd: '/work',
      model: 'm',
      baseArgs: ['--x'],
      attachments: {
        mcpServers: [{ name: 'svc', command: 'svc', args: ['mcp'], env: { A: 'b' } }],
        hooks: { stop: { command: ['svc', 'hook'], timeoutSec: 5 }, promptSubmit: { command: ['p'] }, preToolUse: { command: ['t'], toolNames: ['Bash'] }, permissionRequest: { command: ['a'] } },
        directive: 'be brief',
      },
      runtimeDir: '/tmp/run',
    };
    expect(AdapterMethods.buildSessionProcess.args.parse([session])).toEqual([session]);
    const query: Required<QueryRequest> = { prompt: 'q', cwd: '/w', model: 'm', resume: 'r', continue: false, maxTurns: 2, baseArgs: [] };
    expect(AdapterMethods.generate.args.parse([query])).toEqual([query]);
  });
});
