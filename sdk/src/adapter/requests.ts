// Requests the host hands to an adapter. The host owns the command, base args and environment of
// a connection; the adapter decides where in the argument list they go.
//
// Each request is declared once, as the schema the provider RPC checks it with
// (protocol/v1/adapter-methods.ts); its type is inferred from that schema, so what an adapter is
// typed to receive and what the host sends cannot differ.
import { z } from 'zod';

export interface ResolvedCli {
  /** The executable the host discovered (override → default → aliases → known paths). */
  command: string;
  /** The version the probe reported. */
  version: string;
}

const strings = z.array(z.string());
const envRecord = z.record(z.string(), z.string());

export const SessionMcpServerSchema = z.object({
  name: z.string(),
  command: z.string(),
  args: strings.optional(),
  env: envRecord.optional(),
});
export type SessionMcpServer = z.infer<typeof SessionMcpServerSchema>;

export const SessionHookCommandSchema = z.object({
  /** Executable and its arguments; the adapter quotes them for its CLI's hook runner. */
  command: strings,
  /** Seconds the CLI waits for the hook. */
  timeoutSec: z.number().optional(),
});
export type SessionHookCommand = z.infer<typeof SessionHookCommandSchema>;

/** Hook commands; each gets the CLI's hook JSON on stdin (an argv-free command path). */
export const SessionHooksSchema = z.object({
  /** Runs when a turn ends (Claude/Codex/Qwen `Stop`, Gemini `AfterAgent`). */
  stop: SessionHookCommandSchema.optional(),
  /** Runs when a prompt is submitted (Claude/Codex/Qwen `UserPromptSubmit`, Gemini `BeforeAgent`). */
  promptSubmit: SessionHookCommandSchema.optional(),
  /** Runs before a tool call of one of `toolNames`; its stdout answers with the CLI's PreToolUse JSON. */
  preToolUse: SessionHookCommandSchema.extend({ toolNames: strings }).optional(),
  /**
   * Runs when the CLI would ask the person to approve a call (Claude Code and Codex `PermissionRequest`);
   * its stdout answers allow or deny in the CLI's PermissionRequest JSON, or says nothing and the CLI asks as usual.
   */
  permissionRequest: SessionHookCommandSchema.optional(),
});
export type SessionHooks = z.infer<typeof SessionHooksSchema>;

export const SessionAttachmentsSchema = z.object({
  /** Stdio MCP servers for this run, added beside the user's own. */
  mcpServers: z.array(SessionMcpServerSchema).optional(),
  hooks: SessionHooksSchema.optional(),
  /** Guidance text added to the CLI's system instructions (appended, never replacing them). */
  directive: z.string().optional(),
});
export type SessionAttachments = z.infer<typeof SessionAttachmentsSchema>;

export const SessionRequestSchema = z.object({
  mode: z.enum(['fresh', 'resume']),
  /** The CLI's own session id, for `resume`; absent means "continue the most recent". */
  sessionId: z.string().optional(),
  cwd: z.string(),
  model: z.string().optional(),
  /** Extra CLI arguments from the connection (host-owned). */
  baseArgs: strings.optional(),
  /**
   * What the host attaches to this one run (a task terminal): MCP servers, hooks and a directive.
   * The adapter maps each to its CLI's per-run flags or environment, never by editing the user's
   * configuration or repository; what it cannot apply it lists in `unsupportedAttachments`.
   */
  attachments: SessionAttachmentsSchema.optional(),
  /**
   * A private folder the host made for this run (removed when it ends). Files an adapter returns
   * in `SessionProcess.files` are written there before the CLI starts: for a CLI that takes
   * attachments only from a settings file, named by an environment variable or flag.
   */
  runtimeDir: z.string().optional(),
});
export type SessionRequest = z.infer<typeof SessionRequestSchema>;

export const QueryRequestSchema = z.object({
  prompt: z.string(),
  cwd: z.string(),
  model: z.string().optional(),
  /** Resume this CLI session id. */
  resume: z.string().optional(),
  /** Continue the most recent session of `cwd`. */
  continue: z.boolean().optional(),
  maxTurns: z.number().optional(),
  baseArgs: strings.optional(),
});
export type QueryRequest = z.infer<typeof QueryRequestSchema>;

export const McpServerEntrySchema = z.object({
  name: z.string(),
  command: z.string().optional(),
  args: strings.optional(),
  env: envRecord.optional(),
  url: z.string().optional(),
});
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;

export const HookEntrySchema = z.object({
  event: z.literal('PreToolUse'),
  /** Tool name pattern the hook matches (the CLI's own matcher syntax). */
  matcher: z.string(),
  command: z.string(),
});
export type HookEntry = z.infer<typeof HookEntrySchema>;

export const SkillEntrySchema = z.object({
  name: z.string(),
  /** The SKILL.md text. */
  content: z.string(),
});
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

export const IntegrationScopeSchema = z.object({
  /** `user` edits the CLI's user configuration; `project` edits the given project directory. */
  scope: z.enum(['user', 'project']),
  projectDir: z.string().optional(),
  /**
   * The configuration-location variables of the environment the CLI runs in (names ending in
   * `_HOME`, `_CONFIG_DIR` or `_CONFIG_HOME`, such as `CODEX_HOME`, `GEMINI_CLI_HOME`,
   * `CLAUDE_CONFIG_DIR`, `XDG_CONFIG_HOME`): the user's environment with the connection's on top.
   * Resolve the CLI's configuration home from them as the CLI does (`configLocationEnv` picks them).
   */
  env: envRecord.optional(),
});
export type IntegrationScope = z.infer<typeof IntegrationScopeSchema>;

/** An uninstall's scope: `force` removes an entry svc did not write (its message says whose it was). */
export const IntegrationRemovalSchema = IntegrationScopeSchema.extend({ force: z.boolean().optional() });
export type IntegrationRemoval = z.infer<typeof IntegrationRemovalSchema>;

/** Who put an entry in the CLI's configuration: svc (recorded by its install) or someone else. */
export const IntegrationOriginSchema = z.enum(['svc', 'other']);
export type IntegrationOrigin = z.infer<typeof IntegrationOriginSchema>;

/** What an install or uninstall did, for the user: which file, and whose entry it was. */
export const IntegrationChangeRecordSchema = z.object({
  /** The file (or folder, for skills) that was edited. */
  configPath: z.string(),
  /** False when nothing had to change (the entry was already there as asked). */
  changed: z.boolean(),
  /** Uninstall: who had written the removed entry. */
  origin: IntegrationOriginSchema.optional(),
});
export type IntegrationChange = z.infer<typeof IntegrationChangeRecordSchema>;
