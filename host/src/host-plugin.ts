// The contract between the host and a plugin (the harness is one): what a plugin declares, and what
// the host gives it (the services a process opened, host-services.ts, seen through the operation
// layer's OperationServices). The host wires a plugin through this interface only: it applies the plugin's
// migrations and makes its state when a process opens the database (openHostServices), registers its
// operations in the one registry, places its CLI command modules in the command table, asks it who an
// MCP caller is, and starts and stops it with `svc serve`.
import { SvcError } from '@svc-org/ai-sdk';
import type { SystemConfigKeys } from './platform/config/index.js';
import type { Migration } from './platform/db/index.js';
import type { DomainEvent } from './platform/events/index.js';
import type { AnyOperation, McpProfile, OperationServices, ProjectScope } from './operation-framework/index.js';
import type { HarnessFiles, TerminalManager } from './features/terminals/index.js';
import type { TaskOverlap } from './features/worktrees/index.js';

/**
 * What the host's own features ask of a plugin (each a port the host declares and a plugin may
 * fill). Without a plugin that fills one, the host's default answers. A fact every process must see
 * without evaluating the plugin (a task's open approvals, which `svc task list` shows) is a table the
 * host declares and reads and the plugin's migrations keep instead (task_open_approvals).
 */
export interface HostPorts {
  /** Whether a task is its project's Workbench (it reviews and coordinates from the project folder). */
  isWorkbench(taskId: number): boolean;
  /** Where Node, `svc` and the hook scripts a task terminal's CLI runs are (asked when the first terminal starts). */
  terminalFiles(): HarnessFiles;
}

/** What the host has opened when it makes a plugin's state: every service but the plugins' own. */
export type PluginHost = Omit<OperationServices, 'plugins' | 'ports' | 'close'>;

/** A plugin's state over one opened host (its stores), and the ports it fills. */
export interface PluginInstance<State> {
  state: State;
  ports?: Partial<HostPorts>;
}

/** What `svc serve` hands a plugin it starts. */
export interface PluginStartContext {
  services: OperationServices;
  terminals: TerminalManager;
  env: NodeJS.ProcessEnv;
}

/** A plugin running inside `svc serve`. */
export interface RunningPlugin {
  /** Called for every durable domain event the service claims (idempotent: an event may be handled again). */
  handleDomainEvent?(event: DomainEvent): void;
  /** An overlap between two open tasks' changes, found by the service's worktree watcher. */
  onTaskOverlap?(projectId: number, overlap: TaskOverlap): void;
  stop(): Promise<void>;
}

/**
 * A module of CLI commands a plugin declares. The command table knows its commands' names without
 * loading it (the build writes them beside the host's), places it in `svc --help` after the
 * module it names, and calls `load` only when one of its commands runs or a help lists them: `svc task
 * list` evaluates no plugin code. `Command` is the CLI's command type (the plugin contract sits below
 * the CLI adapter, which declares it).
 */
export interface PluginCommandModule<Command = unknown> {
  /** The module's name (its file's name without `.ts`), unique among the host's and every plugin's. */
  module: string;
  /** The module it follows in `svc --help` (a host module or one the plugin declared before). */
  after: string;
  load(): Promise<readonly Command[]>;
}

/** A channel a gateway-side MCP caller may serve: the chat platform it reaches and the projects it bounds. */
export interface McpChannel {
  name: string;
  gatewayId: number;
  platform: string;
  scope: ProjectScope;
}

/** What a Streamable HTTP client's bearer token grants: the profile it sees and, for a task token, its task. */
export interface McpGrant {
  tokenId: number;
  name: string;
  profile: McpProfile;
  taskId?: number;
}

/**
 * Who the callers of `svc mcp` and `/mcp` are, which a plugin knows and the MCP adapter asks: the
 * gateways whose credentials a gateway's plugin passes, the channels that bound what a gateway-side
 * caller reads, and the bearer tokens of Streamable HTTP clients. Without a plugin that answers, a
 * gateway credential and every bearer token are refused and a gateway-side caller reads no project.
 */
export interface PluginMcpCallers {
  /** The active gateway a credential was issued for; a coded refusal otherwise. */
  verifyGatewayCredential(services: OperationServices, credential: string): { gatewayId: number };
  /** The active channels. */
  activeChannels(services: OperationServices): readonly McpChannel[];
  /** The grant of a bearer token; a coded refusal (`unauthorized`, revoked, expired) otherwise. */
  authenticateToken(services: OperationServices, token: string): McpGrant;
  /** Records that a token opened a session. */
  markTokenUsed(services: OperationServices, tokenId: number): void;
}

/** Names a plugin's state on an opened host; its type parameter is the state's type. */
export interface PluginKey<State> {
  readonly id: string;
  /** Never set: carries the state's type. */
  readonly state?: State;
}

export interface HostPlugin<State = unknown, Command = unknown> extends PluginKey<State> {
  /** Its numbered schema migrations, applied with the host's when a process opens the database. */
  migrations: readonly Migration[];
  /**
   * Every operation it declares, in one array: the host's one registry takes them beside its own
   * (`svc serve` registers them all; each declaration says whether it is an MCP tool).
   */
  operations: readonly AnyOperation[];
  /** The system config keys it reads (`svc config`). */
  configKeys: SystemConfigKeys;
  /** Its CLI command modules, each loaded only when one of its commands runs. */
  cli?: readonly PluginCommandModule<Command>[];
  /** Who the MCP adapter's callers are (gateway credentials, channels, bearer tokens). */
  mcpCallers?: PluginMcpCallers;
  /** Makes its state (stores) over a host that has just opened, after its migrations ran. */
  init(host: PluginHost): PluginInstance<State>;
  /** Starts its workers inside `svc serve`. */
  start?(context: PluginStartContext): RunningPlugin;
}

/** Declares a plugin (the identity: it only types the declaration). */
export function defineHostPlugin<State, Command = unknown>(plugin: HostPlugin<State, Command>): HostPlugin<State, Command> {
  return plugin;
}

/** The plugins an opened host has made, by id. */
export class OpenedPlugins {
  private readonly states = new Map<string, unknown>();

  constructor(readonly list: readonly HostPlugin<any, any>[] = []) {}

  /** Records a plugin's state (openHostServices, once per plugin). */
  set(plugin: HostPlugin<any, any>, state: unknown): void {
    this.states.set(plugin.id, state);
  }

  /** Whether this host was opened with a plugin of that id. */
  has(id: string): boolean {
    return this.states.has(id);
  }

  /** The state of a plugin this host was opened with. */
  stateOf<State>(plugin: PluginKey<State>): State {
    if (!this.states.has(plugin.id)) {
      throw new SvcError({
        code: 'plugin_not_opened',
        message: `the host was opened without the ${plugin.id} plugin`,
        details: { plugin: plugin.id, fix: 'open the host with it: openHostServices({ plugins }), or `plugins: true` on the CLI command that runs its operations' },
      });
    }
    return this.states.get(plugin.id) as State;
  }

  /** Who the MCP adapter's callers are: the first plugin that says, or refusals where none does. */
  mcpCallers(): PluginMcpCallers {
    return this.list.find((plugin) => plugin.mcpCallers !== undefined)?.mcpCallers ?? NO_MCP_CALLERS;
  }
}

const NO_MCP_CALLERS: PluginMcpCallers = {
  verifyGatewayCredential() {
    throw new SvcError({ code: 'gateway_credential_invalid', message: 'no plugin of this host issues gateway credentials', details: { fix: 'svc serve and svc mcp open the host with the harness' } });
  },
  activeChannels: () => [],
  authenticateToken() {
    throw new SvcError({ code: 'unauthorized', message: 'no plugin of this host issues MCP tokens', details: { fix: 'svc serve opens the host with the harness' } });
  },
  markTokenUsed() {},
};

/** The host's answers where no plugin fills a port. */
export const DEFAULT_PORTS: HostPorts = {
  isWorkbench: () => false,
  terminalFiles: () => {
    throw new SvcError({ code: 'harness_files_missing', message: 'no plugin gives the hook scripts a task terminal runs', details: { fix: 'svc serve opens the host with the harness' } });
  },
};
