// Requests the host hands to an adapter. The host owns the command, base args and environment of
// a connection; the adapter decides where in the argument list they go.

export interface ResolvedCli {
  /** The executable the host discovered (override → default → aliases → known paths). */
  command: string;
  /** The version the probe reported. */
  version: string;
}

export interface SessionRequest {
  mode: 'fresh' | 'resume';
  /** The CLI's own session id, for `resume`; absent means "continue the most recent". */
  sessionId?: string;
  cwd: string;
  model?: string;
  /** Extra CLI arguments from the connection (host-owned). */
  baseArgs?: string[];
  /**
   * What the host attaches to this one run (a task terminal): MCP servers, hooks and a directive.
   * The adapter maps each to its CLI's per-run flags or environment, never by editing the user's
   * configuration or repository; what it cannot apply it lists in `unsupportedAttachments`.
   */
  attachments?: SessionAttachments;
  /**
   * A private folder the host made for this run (removed when it ends). Files an adapter returns
   * in `SessionProcess.files` are written there before the CLI starts: for a CLI that takes
   * attachments only from a settings file, named by an environment variable or flag.
   */
  runtimeDir?: string;
}

export interface SessionAttachments {
  /** Stdio MCP servers for this run, added beside the user's own. */
  mcpServers?: SessionMcpServer[];
  hooks?: SessionHooks;
  /** Guidance text added to the CLI's system instructions (appended, never replacing them). */
  directive?: string;
}

export interface SessionMcpServer {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** Hook commands; each gets the CLI's hook JSON on stdin (an argv-free command path). */
export interface SessionHooks {
  /** Runs when a turn ends (Claude/Codex/Qwen `Stop`, Gemini `AfterAgent`). */
  stop?: SessionHookCommand;
  /** Runs when a prompt is submitted (Claude/Codex/Qwen `UserPromptSubmit`, Gemini `BeforeAgent`). */
  promptSubmit?: SessionHookCommand;
  /** Runs before a tool call of one of `toolNames`; its stdout answers with the CLI's PreToolUse JSON. */
  preToolUse?: SessionHookCommand & { toolNames: string[] };
  /**
   * Runs when the CLI would ask the person to approve a call (Claude Code and Codex `PermissionRequest`);
   * its stdout answers allow or deny in the CLI's PermissionRequest JSON, or says nothing and the CLI asks as usual.
   */
  permissionRequest?: SessionHookCommand;
}

export interface SessionHookCommand {
  /** Executable and its arguments; the adapter quotes them for its CLI's hook runner. */
  command: string[];
  /** Seconds the CLI waits for the hook. */
  timeoutSec?: number;
}

export interface QueryRequest {
  prompt: string;
  cwd: string;
  model?: string;
  /** Resume this CLI session id. */
  resume?: string;
  /** Continue the most recent session of `cwd`. */
  continue?: boolean;
  maxTurns?: number;
  baseArgs?: string[];
}

export interface McpServerEntry {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
}

export interface HookEntry {
  event: 'PreToolUse';
  /** Tool name pattern the hook matches (the CLI's own matcher syntax). */
  matcher: string;
  command: string;
}

export interface SkillEntry {
  name: string;
  /** The SKILL.md text. */
  content: string;
}

export interface IntegrationScope {
  /** `user` edits the CLI's user configuration; `project` edits the given project directory. */
  scope: 'user' | 'project';
  projectDir?: string;
  /**
   * The configuration-location variables of the environment the CLI runs in (names ending in
   * `_HOME`, `_CONFIG_DIR` or `_CONFIG_HOME`, such as `CODEX_HOME`, `GEMINI_CLI_HOME`,
   * `CLAUDE_CONFIG_DIR`, `XDG_CONFIG_HOME`): the user's environment with the connection's on top.
   * Resolve the CLI's configuration home from them as the CLI does (`configLocationEnv` picks them).
   */
  env?: Readonly<Record<string, string>>;
}

/** An uninstall's scope: `force` removes an entry svc did not write (its message says whose it was). */
export interface IntegrationRemoval extends IntegrationScope {
  force?: boolean;
}

/** Who put an entry in the CLI's configuration: svc (recorded by its install) or someone else. */
export type IntegrationOrigin = 'svc' | 'other';

/** What an install or uninstall did, for the user: which file, and whose entry it was. */
export interface IntegrationChange {
  /** The file (or folder, for skills) that was edited. */
  configPath: string;
  /** False when nothing had to change (the entry was already there as asked). */
  changed: boolean;
  /** Uninstall: who had written the removed entry. */
  origin?: IntegrationOrigin;
}
