// Defaults live here, merged once and validated at construction with messages that name the rule.
export interface RuntimeLimits {
  /** Worker threads per enabled extension. */
  maxThreads: number;
  /** An idle provider's threads are unloaded after this long. */
  idleTimeoutMs: number;
  concurrentTasksPerWorker: number;
  /** V8 heap limit of a provider thread. */
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  stackSizeMb: number;
  /** How long a cancelled call may take to wind down before its worker is terminated. */
  cancelGraceMs: number;
  callTimeoutMs: {
    buildSessionProcess: number;
    query: number;
    models: number;
    integration: number;
  };
}

export const RUNTIME_DEFAULTS: RuntimeLimits = {
  maxThreads: 2,
  idleTimeoutMs: 60_000,
  concurrentTasksPerWorker: 4,
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
  cancelGraceMs: 2_000,
  callTimeoutMs: {
    buildSessionProcess: 15_000,
    query: 60 * 60_000,
    models: 30_000,
    integration: 30_000,
  },
};

export type RuntimeLimitsInput = Partial<Omit<RuntimeLimits, 'callTimeoutMs'>> & {
  callTimeoutMs?: Partial<RuntimeLimits['callTimeoutMs']>;
};

export function resolveRuntimeLimits(input: RuntimeLimitsInput = {}): RuntimeLimits {
  const limits: RuntimeLimits = {
    ...RUNTIME_DEFAULTS,
    ...input,
    callTimeoutMs: { ...RUNTIME_DEFAULTS.callTimeoutMs, ...input.callTimeoutMs },
  };
  const positiveInteger = (name: string, value: number) => {
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`options.${name} must be a positive integer`);
  };
  positiveInteger('maxThreads', limits.maxThreads);
  positiveInteger('idleTimeoutMs', limits.idleTimeoutMs);
  positiveInteger('concurrentTasksPerWorker', limits.concurrentTasksPerWorker);
  positiveInteger('maxOldGenerationSizeMb', limits.maxOldGenerationSizeMb);
  positiveInteger('maxYoungGenerationSizeMb', limits.maxYoungGenerationSizeMb);
  positiveInteger('stackSizeMb', limits.stackSizeMb);
  positiveInteger('cancelGraceMs', limits.cancelGraceMs);
  for (const [name, value] of Object.entries(limits.callTimeoutMs)) positiveInteger(`callTimeoutMs.${name}`, value);
  return limits;
}
