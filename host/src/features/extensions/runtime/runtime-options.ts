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
  /**
   * How long a call may take to wind down after its deadline or a cancel. Past it the call is
   * abandoned: the caller gets its coded error at once, the worker thread is terminated without
   * waiting and every process the provider started is killed.
   */
  cancelGraceMs: number;
  /** Stream credit window in size units (an event's JSON length): what may be in flight unread. */
  eventWindowBytes: number;
  /** The largest single stream event; a larger one ends the call with `event_too_large`. */
  maxEventBytes: number;
  /**
   * The largest message a provider may send the host, in bytes (a hardened process's frame is
   * refused before it is read): a larger one stops the provider (`ipc_message_too_large`).
   */
  maxMessageBytes: number;
  /** The deepest nesting of a message from a provider; deeper stops it (`ipc_message_too_deep`). */
  maxMessageDepth: number;
  /** What one provider may keep in its storage (keys and JSON values, in bytes): `storage_quota_exceeded` past it. */
  storageQuotaBytes: number;
  /** A provider's log records per second (per extension, over all its calls); the rest are dropped and counted. */
  logRecordsPerSecond: number;
  /** How many log records a provider may write in a burst above that rate. */
  logBurst: number;
  /** A provider log message longer than this is cut. */
  maxLogMessageChars: number;
  /** A provider whose calls crash their worker or process this many times... */
  crashLoopCrashes: number;
  /** ...within this window is quarantined (`broken`, `crash_loop`) until the person enables it again. */
  crashLoopWindowMs: number;
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
  eventWindowBytes: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
  maxMessageBytes: 64 * 1024 * 1024,
  maxMessageDepth: 128,
  storageQuotaBytes: 16 * 1024 * 1024,
  logRecordsPerSecond: 100,
  logBurst: 500,
  maxLogMessageChars: 8 * 1024,
  crashLoopCrashes: 3,
  crashLoopWindowMs: 5 * 60_000,
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
  positiveInteger('eventWindowBytes', limits.eventWindowBytes);
  positiveInteger('maxEventBytes', limits.maxEventBytes);
  positiveInteger('maxMessageBytes', limits.maxMessageBytes);
  positiveInteger('maxMessageDepth', limits.maxMessageDepth);
  positiveInteger('storageQuotaBytes', limits.storageQuotaBytes);
  positiveInteger('logRecordsPerSecond', limits.logRecordsPerSecond);
  positiveInteger('logBurst', limits.logBurst);
  positiveInteger('crashLoopCrashes', limits.crashLoopCrashes);
  positiveInteger('crashLoopWindowMs', limits.crashLoopWindowMs);
  positiveInteger('maxLogMessageChars', limits.maxLogMessageChars);
  if (limits.maxEventBytes > limits.eventWindowBytes) {
    throw new TypeError('options.maxEventBytes must not exceed options.eventWindowBytes');
  }
  // A batch of events fills at most the window, at up to two bytes a size unit.
  if (limits.maxMessageBytes < 2 * limits.eventWindowBytes) {
    throw new TypeError('options.maxMessageBytes must be at least twice options.eventWindowBytes');
  }
  if (limits.maxMessageDepth < 16) throw new TypeError('options.maxMessageDepth must be at least 16');
  for (const [name, value] of Object.entries(limits.callTimeoutMs)) positiveInteger(`callTimeoutMs.${name}`, value);
  return limits;
}
