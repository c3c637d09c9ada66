// The runtime limits a person may set: the environment first, then the `system_config` key
// (`svc config set`), then the default — the same order as the terminal settings.
import { SvcError } from '@svc-org/ai-sdk';
import type { RuntimeLimitsInput } from './runtime-options.js';

export const RUNTIME_SETTING_SOURCES = {
  cancelGraceMs: { env: 'SVC_RUNTIME_CANCEL_GRACE_MS', key: 'runtime.cancelGraceMs', description: 'how long a call may wind down after its deadline or a cancel before its worker is abandoned (default 2000)' },
  eventWindowBytes: { env: 'SVC_RUNTIME_EVENT_WINDOW_BYTES', key: 'runtime.eventWindowBytes', description: 'stream events in flight unread, in size units (default 16 MiB)' },
  maxEventBytes: { env: 'SVC_RUNTIME_MAX_EVENT_BYTES', key: 'runtime.maxEventBytes', description: 'the largest single stream event, in size units (default 4 MiB)' },
  maxMessageBytes: { env: 'SVC_RUNTIME_MAX_MESSAGE_BYTES', key: 'runtime.maxMessageBytes', description: 'the largest message a provider may send the host, in bytes (default 64 MiB)' },
  maxMessageDepth: { env: 'SVC_RUNTIME_MAX_MESSAGE_DEPTH', key: 'runtime.maxMessageDepth', description: 'the deepest nesting of a message from a provider (default 128)' },
  storageQuotaBytes: { env: 'SVC_RUNTIME_STORAGE_QUOTA_BYTES', key: 'runtime.storageQuotaBytes', description: 'what one provider may keep in its storage, in bytes (default 16 MiB)' },
  crashLoopCrashes: { env: 'SVC_RUNTIME_CRASH_LOOP_CRASHES', key: 'runtime.crashLoopCrashes', description: 'crashes within the crash-loop window that quarantine a provider (default 3)' },
  crashLoopWindowMs: { env: 'SVC_RUNTIME_CRASH_LOOP_WINDOW_MS', key: 'runtime.crashLoopWindowMs', description: 'the crash-loop window in ms (default 300000, 5 minutes)' },
} as const;

export function runtimeLimitsFromSettings(env: NodeJS.ProcessEnv, systemConfig: (key: string) => string | undefined): RuntimeLimitsInput {
  const limits: Record<string, number> = {};
  for (const [name, source] of Object.entries(RUNTIME_SETTING_SOURCES)) {
    const raw = env[source.env] ?? systemConfig(source.key);
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw.trim());
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new SvcError({ code: 'invalid_settings', message: `${source.env} (${source.key}) must be a positive integer (got "${raw}")` });
    }
    limits[name] = value;
  }
  return limits;
}
