import type { CliQueryResult } from '../events/cli-query-result.js';
import type { CliStreamItem } from '../events/cli-stream-batches.js';
import type { ModelInfo } from '../events/model-info.js';
import type { HostContext } from '../host-context/host-context.js';
import type {
  HookEntry,
  IntegrationChange,
  IntegrationOrigin,
  IntegrationRemoval,
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
  /** Each entry with `origin`: `svc` when svc's install wrote it, `other` when it was there before or someone else added it. */
  entries: Array<T & { origin?: IntegrationOrigin }>;
}

/**
 * Integrations edit the file the CLI reads (resolve its home from `scope.env` as the CLI does) and
 * say which. Uninstall of an entry that is not there throws `integration_not_found`; of an entry svc
 * did not write, `integration_not_owned` unless `scope.force`. Install/uninstall may return what
 * they changed (`IntegrationChange`); older adapters return nothing.
 */
export interface McpIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<McpServerEntry>>;
  install(entry: McpServerEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange | void>;
  uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange | void>;
}

export interface HooksIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<HookEntry>>;
  install(entry: HookEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange | void>;
  uninstall(entry: HookEntry, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange | void>;
}

export interface SkillsIntegration {
  inspect(scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationInspection<Pick<SkillEntry, 'name'>>>;
  install(entry: SkillEntry, scope: IntegrationScope, ctx: AdapterContext): Promise<IntegrationChange | void>;
  uninstall(name: string, scope: IntegrationRemoval, ctx: AdapterContext): Promise<IntegrationChange | void>;
}

export interface CliAdapter {
  /** The interactive CLI; only for a provider whose manifest declares `capabilities.sessions`. */
  buildSessionProcess?(request: SessionRequest, ctx: AdapterContext): Promise<SessionProcess> | SessionProcess;
  generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult>;
  /** Events as they happen, one at a time or in batches (`CliStreamItem`); read them with `cliStreamEvents` to take them one by one. */
  stream?(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem>;
  models?(ctx: AdapterContext): Promise<ModelInfo[]>;
  mcp?: McpIntegration;
  hooks?: HooksIntegration;
  skills?: SkillsIntegration;
}
