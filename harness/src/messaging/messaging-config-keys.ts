import { invalidConfigValue, type SystemConfigKeys } from '@svc-org/host/platform/config';

/** `allow`: push_to_human may send to a chat id no channel names. Unset: only named targets. */
export const RAW_PUSH_TARGETS_KEY = 'harness.push.rawTargets';

export const MESSAGING_CONFIG_KEYS: SystemConfigKeys = {
  [RAW_PUSH_TARGETS_KEY]: {
    description: 'allow: push_to_human may send to any chat id, not only the home and targets a channel names (unset: named only)',
    normalize: (value: string) => {
      if (value !== 'allow' && value !== 'deny') throw invalidConfigValue(RAW_PUSH_TARGETS_KEY, 'must be allow or deny');
      return value;
    },
  },
};
