// What the recorder gathers between two writes: counters keyed by provider, hour and what they
// count, merged into the database in one transaction (provider-stats-store.ts).

export interface MethodCounters {
  id: string;
  method: string;
  hour: string;
  calls: number;
  errors: number;
  cancelled: number;
  timeouts: number;
  crashes: number;
  maxMs: number;
  /** latency bucket → calls (latency-buckets.ts) */
  buckets: Map<number, number>;
}

export interface ActivationCounters {
  id: string;
  hour: string;
  count: number;
  totalMs: number;
  maxMs: number;
  lastMs: number;
  lastAt: string;
}

export interface RecentError {
  id: string;
  at: string;
  method: string;
  code: string;
  /** Redacted before it is recorded. */
  message: string;
}

export interface MemorySample {
  isolation: string;
  heapUsed: number;
  rss?: number;
  at: string;
}

export interface PermissionCounters {
  id: string;
  permission: string;
  hour: string;
  calls: number;
  lastAt: string;
}

export interface ProviderStatsBatch {
  calls: Map<string, MethodCounters>;
  errorCodes: Map<string, { id: string; code: string; hour: string; count: number }>;
  activations: Map<string, ActivationCounters>;
  recentErrors: RecentError[];
  memory: Map<string, MemorySample>;
  permissions: Map<string, PermissionCounters>;
}

export function emptyStatsBatch(): ProviderStatsBatch {
  return { calls: new Map(), errorCodes: new Map(), activations: new Map(), recentErrors: [], memory: new Map(), permissions: new Map() };
}

export function isEmptyStatsBatch(batch: ProviderStatsBatch): boolean {
  return batch.calls.size + batch.errorCodes.size + batch.activations.size + batch.recentErrors.length + batch.memory.size + batch.permissions.size === 0;
}
