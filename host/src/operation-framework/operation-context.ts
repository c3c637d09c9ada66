import type { ServedOperations } from './operation-mcp.js';

/**
 * What a process has opened (database, stores, logger) and, inside `svc serve`, its live terminals.
 * The operation layer sits below the features, so it names neither: host-services.ts, which opens
 * them, fills these two interfaces in (a module augmentation) and every handler sees them whole.
 */
export interface OperationServices {}
export interface OperationTerminals {}

/** Who is calling, as the adapter knows it (never as the caller claims it). */
export interface OperationCaller {
  via: 'cli' | 'http' | 'mcp' | 'internal';
  /**
   * The task a task terminal's `svc mcp` (its execution's credential) or a task's MCP token speaks
   * for: such a caller reaches that task, the tasks below it and its project only (caller-reach.ts).
   */
  taskId?: number;
  /** The MCP profile in force, for handlers that narrow further. */
  mcpProfile?: string;
  /** The gateway whose plugin credential the caller presented: only such a caller may say who sent a platform message. */
  gatewayId?: number;
  /**
   * The projects a caller may read, as the scopes of the channels it serves (a null workspace and
   * project: every project), or a task-bound caller's own project. Unset: no narrowing (the CLI, a
   * person's own MCP client).
   */
  projectScopes?: readonly ProjectScope[];
}

export interface ProjectScope {
  workspaceId: number | null;
  projectId: number | null;
}

export interface OperationContext {
  services: OperationServices;
  /** Present only inside `svc serve`; operations with `runsIn: 'service'` are forwarded otherwise. */
  terminals?: OperationTerminals;
  caller: OperationCaller;
  signal: AbortSignal;
  /** How the caller follows a long operation (the CLI's steps and download bar); HTTP and MCP pass none. */
  progress?: OperationProgress;
  /**
   * Every operation this process serves, whatever this caller may call (the one registry in `svc
   * serve` and `svc mcp`; a CLI command's own otherwise): a handler that tells its caller which other
   * operations it may call reads their declarations here, never a list of names of its own.
   */
  served?: ServedOperations;
}

export interface OperationProgress {
  onStep?(line: string): void;
  onProgress?(progress: { receivedBytes: number; totalBytes: number }): void;
}
