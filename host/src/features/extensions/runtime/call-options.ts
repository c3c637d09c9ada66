/** What a caller may set for one adapter call: its cancel signal, deadline and host-owned inputs. */
export interface CallOptions {
  signal?: AbortSignal;
  /** The call's deadline, counted from the moment it starts running on a worker thread. */
  timeoutMs?: number;
  /** Connection-level environment for spawned CLIs (host-owned). */
  connectionEnv?: Record<string, string>;
  /** Provider settings, served to the adapter only with `config:provider`. */
  loadConfig?: () => Promise<Record<string, unknown>>;
  onSpawn?: (pid: number, command: string) => void;
}
