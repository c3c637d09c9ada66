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
}
