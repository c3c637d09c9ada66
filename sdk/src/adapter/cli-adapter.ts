import type { CliQueryResult } from '../events/cli-query-result.js';
import type { CliStreamEvent } from '../events/cli-stream-event.js';
import type { ModelInfo } from '../events/model-info.js';
import type { HostContext } from '../host-context/host-context.js';
import type {
  HookEntry,
  IntegrationScope,
  McpServerEntry,
  QueryRequest,
  ResolvedCli,
  SessionRequest,
  SkillEntry,
} from './requests.js';
import type { SessionProcess } from './session-process.js';

/** Passed to every adapter call: the gated host, the call's cancellation, and the resolved CLI. */
export interface AdapterContext {
  readonly host: HostContext;
  readonly signal: AbortSignal;
  readonly cli: ResolvedCli;
}

export interface IntegrationInspection<T> {
  /** The configuration file read, when the CLI keeps one. */
  configPath?: string;
  entries: T[];
}

export interface McpIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<McpServerEntry>>;
  install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
  uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
}

export interface HooksIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<HookEntry>>;
  install(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
  uninstall(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
}

export interface SkillsIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<Pick<SkillEntry, 'name'>>>;
  install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
  uninstall(name: string, scope: IntegrationScope, ctx: AdapterContext): Promise<void>;
}

export interface CliAdapter {
  buildSessionProcess(request: SessionRequest, ctx: AdapterContext): Promise<SessionProcess> | SessionProcess;
  generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult>;
  stream?(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent>;
  models?(ctx: AdapterContext): Promise<ModelInfo[]>;
  mcp?: McpIntegration;
  hooks?: HooksIntegration;
  skills?: SkillsIntegration;
}
