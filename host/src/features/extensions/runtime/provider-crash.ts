import type { AdapterMethodName } from '@svc-org/ai-sdk';

/** A call that crashed its worker thread or process (not a deadline, cancel or unload). */
export interface ProviderCrash {
  pluginId: string;
  method: AdapterMethodName;
  reason: string;
}
