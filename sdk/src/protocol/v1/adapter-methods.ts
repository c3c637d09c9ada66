// The adapter methods (host → provider), declared once: the arguments the host passes, the result
// it accepts (checked at the host's edge; a wrong shape is the provider's fault, with a code), the
// deadline class that bounds the call, and the permission the call itself needs.
import { z } from 'zod';
import {
  HookEntrySchema,
  IntegrationChangeRecordSchema,
  IntegrationOriginSchema,
  IntegrationRemovalSchema,
  IntegrationScopeSchema,
  McpServerEntrySchema,
  QueryRequestSchema,
  SessionRequestSchema,
  SkillEntrySchema,
} from '../../adapter/requests.js';
import { SessionProcessSchema } from '../../adapter/session-process.js';
import { CliQueryResultSchema } from '../../events/cli-query-result.js';
import { ModelInfoSchema } from '../../events/model-info.js';
import type { Permission } from '../../manifest/permissions.js';

/** Which of the host's call deadlines (`runtime.callTimeoutMs.<class>`) bounds a method. */
export type AdapterTimeoutClass = 'buildSessionProcess' | 'query' | 'models' | 'integration';

/** `A` is the schema of the arguments itself: an adapter's parameters are inferred from it (requests.ts). */
export interface AdapterMethodDeclaration<A extends z.ZodTuple, R extends z.ZodTypeAny> {
  args: A;
  /** What the host accepts as the answer (`stream` answers nothing: its events are checked one by one). */
  result: R;
  timeout: AdapterTimeoutClass;
  /** A permission the call needs beyond the provider's capability (the host checks it before the call). */
  permission: Permission | null;
  /** The code of the error when the provider answers a wrong shape. */
  invalidResultCode: 'plugin_invalid_result' | 'invalid_session_process';
}

function adapterMethod<A extends z.ZodTuple, R extends z.ZodTypeAny>(
  declaration: Omit<AdapterMethodDeclaration<A, R>, 'invalidResultCode' | 'permission'> &
    Partial<Pick<AdapterMethodDeclaration<A, R>, 'invalidResultCode' | 'permission'>>,
): AdapterMethodDeclaration<A, R> {
  return { permission: null, invalidResultCode: 'plugin_invalid_result', ...declaration };
}

const origin = IntegrationOriginSchema.optional();

/** An inspection: the file read and its entries; fields the provider adds to an entry are kept. */
function inspectionSchema<E extends z.ZodRawShape>(entry: E) {
  return z.object({ configPath: z.string().optional(), entries: z.array(z.looseObject({ ...entry, origin })) });
}

/** What an install or uninstall changed; providers built before it answer nothing. */
export const IntegrationChangeSchema = IntegrationChangeRecordSchema.optional();

export const AdapterMethods = {
  buildSessionProcess: adapterMethod({
    args: z.tuple([SessionRequestSchema]),
    result: SessionProcessSchema,
    timeout: 'buildSessionProcess',
    invalidResultCode: 'invalid_session_process',
  }),
  generate: adapterMethod({ args: z.tuple([QueryRequestSchema]), result: CliQueryResultSchema, timeout: 'query' }),
  stream: adapterMethod({ args: z.tuple([QueryRequestSchema]), result: z.undefined(), timeout: 'query' }),
  models: adapterMethod({ args: z.tuple([]), result: z.array(ModelInfoSchema), timeout: 'models' }),
  'mcp.inspect': adapterMethod({
    args: z.tuple([IntegrationScopeSchema]),
    result: inspectionSchema(McpServerEntrySchema.shape),
    timeout: 'integration',
    permission: 'integration:mcp',
  }),
  'mcp.install': adapterMethod({
    args: z.tuple([McpServerEntrySchema, IntegrationScopeSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:mcp',
  }),
  'mcp.uninstall': adapterMethod({
    args: z.tuple([z.string(), IntegrationRemovalSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:mcp',
  }),
  'hooks.inspect': adapterMethod({
    args: z.tuple([IntegrationScopeSchema]),
    result: inspectionSchema({ event: z.string(), matcher: z.string(), command: z.string() }),
    timeout: 'integration',
    permission: 'integration:hooks',
  }),
  'hooks.install': adapterMethod({
    args: z.tuple([HookEntrySchema, IntegrationScopeSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:hooks',
  }),
  'hooks.uninstall': adapterMethod({
    args: z.tuple([HookEntrySchema, IntegrationRemovalSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:hooks',
  }),
  'skills.inspect': adapterMethod({
    args: z.tuple([IntegrationScopeSchema]),
    result: inspectionSchema({ name: z.string() }),
    timeout: 'integration',
    permission: 'integration:skills',
  }),
  'skills.install': adapterMethod({
    args: z.tuple([SkillEntrySchema, IntegrationScopeSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:skills',
  }),
  'skills.uninstall': adapterMethod({
    args: z.tuple([z.string(), IntegrationRemovalSchema]),
    result: IntegrationChangeSchema,
    timeout: 'integration',
    permission: 'integration:skills',
  }),
} as const;

export type AdapterMethodName = keyof typeof AdapterMethods;
export type AdapterMethodArgs<M extends AdapterMethodName> = z.output<(typeof AdapterMethods)[M]['args']>;
export type AdapterMethodResult<M extends AdapterMethodName> = z.output<(typeof AdapterMethods)[M]['result']>;

/** One adapter call as it crosses to the provider: the method and its arguments, typed together. */
export type AdapterCall<N extends AdapterMethodName = AdapterMethodName> = { [M in N]: { method: M; args: AdapterMethodArgs<M> } }[N];

/** The integration methods: only inside one may the provider use the Host Context's files API. */
export type IntegrationMethodName = Extract<AdapterMethodName, `${'mcp' | 'hooks' | 'skills'}.${string}`>;

export function isIntegrationMethod(method: AdapterMethodName): method is IntegrationMethodName {
  return AdapterMethods[method].timeout === 'integration';
}

const callOf: { [M in AdapterMethodName]: (args: AdapterMethodArgs<M>) => AdapterCall } = {
  buildSessionProcess: (args) => ({ method: 'buildSessionProcess', args }),
  generate: (args) => ({ method: 'generate', args }),
  stream: (args) => ({ method: 'stream', args }),
  models: (args) => ({ method: 'models', args }),
  'mcp.inspect': (args) => ({ method: 'mcp.inspect', args }),
  'mcp.install': (args) => ({ method: 'mcp.install', args }),
  'mcp.uninstall': (args) => ({ method: 'mcp.uninstall', args }),
  'hooks.inspect': (args) => ({ method: 'hooks.inspect', args }),
  'hooks.install': (args) => ({ method: 'hooks.install', args }),
  'hooks.uninstall': (args) => ({ method: 'hooks.uninstall', args }),
  'skills.inspect': (args) => ({ method: 'skills.inspect', args }),
  'skills.install': (args) => ({ method: 'skills.install', args }),
  'skills.uninstall': (args) => ({ method: 'skills.uninstall', args }),
};

/** A call of one method (typed by the caller's `M`) as the transport carries it: one of `AdapterCall`. */
export function adapterCall<M extends AdapterMethodName>(method: M, args: AdapterMethodArgs<M>): AdapterCall {
  return callOf[method](args);
}
