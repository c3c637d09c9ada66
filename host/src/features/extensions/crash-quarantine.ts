// Quarantine of a provider whose calls keep crashing its worker or process.
import type { Logger } from '../../platform/logging/index.js';
import { effectiveIsolation } from './effective-isolation.js';
import { isServing } from './provider-serving.js';
import type { ExtensionCrash, ExtensionRegistry } from './registry/index.js';
import type { ExtensionRuntime, ProviderCrash } from './runtime/index.js';

export interface CrashQuarantineOptions {
  registry: ExtensionRegistry;
  runtime: ExtensionRuntime;
  logger: Logger;
}

export class CrashQuarantine {
  constructor(private readonly options: CrashQuarantineOptions) {}

  /**
   * A call crashed its worker or process: kept for `svc ext doctor`; the one that makes
   * `runtime.crashLoopCrashes` within `runtime.crashLoopWindowMs` quarantines the provider
   * (`broken`, `crash_loop`) until the person enables it again. Other providers are untouched.
   */
  async record(crash: ProviderCrash): Promise<void> {
    const { registry, runtime, logger } = this.options;
    const record = registry.find(crash.pluginId);
    if (!record) return;
    const now = new Date();
    registry.crashes.record(record.id, { at: now.toISOString(), method: crash.method, isolation: effectiveIsolation(record), reason: crash.reason });
    const { crashLoopCrashes, crashLoopWindowMs } = runtime.limitsInEffect;
    const recent = registry.crashes.countSince(record.id, new Date(now.getTime() - crashLoopWindowMs).toISOString());
    if (recent < crashLoopCrashes || !isServing(record, true)) return;
    registry.setState(record.id, 'broken', {
      code: 'crash_loop',
      message: `its calls crashed ${recent} times in ${Math.round(crashLoopWindowMs / 1000)} s; quarantined until enabled again (see svc ext doctor ${record.id})`,
    });
    logger.error('provider quarantined: crash loop', { id: record.id, crashes: recent, windowMs: crashLoopWindowMs });
    await runtime.unload(record.id);
  }

  /** The crashes `svc ext doctor` lists, newest first. */
  list(id: string): ExtensionCrash[] {
    this.options.registry.get(id);
    return this.options.registry.crashes.list(id);
  }

  /** Enabling again ends a quarantine: the crashes before it stay listed but no longer count. */
  forgive(id: string): void {
    this.options.registry.crashes.forgive(id);
  }
}
