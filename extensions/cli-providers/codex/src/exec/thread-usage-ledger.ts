import type { CliUsage, PluginStorage } from '@svc-org/ai-sdk';

// `turn.completed.usage` is cumulative for the whole thread, across processes: three `exec resume`
// runs of 1500 tokens each report 1500, 3000, 4500. The canonical usage event is per call, so the
// ledger remembers each thread's last total in plugin storage and hands out the difference.

const KEY_PREFIX = 'codex/thread-usage/';

interface Totals {
  inputTokens: number;
  outputTokens: number;
}

function isTotals(value: unknown): value is Totals {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Totals).inputTokens === 'number' &&
    typeof (value as Totals).outputTokens === 'number'
  );
}

export interface UsageDelta {
  usage: CliUsage;
  /** Set when the delta could not be computed and the usage is the thread's running total. */
  warning?: string;
}

export class ThreadUsageLedger {
  constructor(private readonly storage: PluginStorage) {}

  /**
   * @param freshThread the thread was created by this call, so its previous total is zero even
   *   when nothing is stored yet.
   */
  async delta(threadId: string | undefined, cumulative: Totals, freshThread: boolean): Promise<UsageDelta> {
    const stored = threadId ? await this.storage.get(KEY_PREFIX + threadId) : undefined;
    const previous: Totals | undefined = isTotals(stored) ? stored : freshThread ? { inputTokens: 0, outputTokens: 0 } : undefined;
    if (threadId) await this.storage.set(KEY_PREFIX + threadId, { ...cumulative });
    const asUsage = (totals: Totals): CliUsage => ({
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      totalTokens: totals.inputTokens + totals.outputTokens,
    });
    if (!previous) {
      return {
        usage: asUsage(cumulative),
        warning: 'usage is the running total of the resumed codex thread (its earlier total is unknown to svc)',
      };
    }
    const delta = {
      inputTokens: cumulative.inputTokens - previous.inputTokens,
      outputTokens: cumulative.outputTokens - previous.outputTokens,
    };
    if (delta.inputTokens < 0 || delta.outputTokens < 0) {
      return { usage: asUsage(cumulative), warning: 'codex reported a thread total below the previous one; usage is the reported total' };
    }
    return { usage: asUsage(delta) };
  }
}
