import { SvcError } from '@svc-org/ai-sdk';

/** One key `svc config set` accepts, with the rule its value must follow. */
export interface SystemConfigKey {
  description: string;
  /** Returns the value as it is stored, or throws `config_value_invalid` naming the rule. */
  normalize(value: string): string;
}

/** The keys one module owns; the composition root gathers every module's into one table. */
export type SystemConfigKeys = Readonly<Record<string, SystemConfigKey>>;

export function invalidConfigValue(key: string, rule: string): SvcError {
  return new SvcError({ code: 'config_value_invalid', message: `${key} ${rule}`, details: { key } });
}

export const positiveIntegerValue = (key: string) => (value: string): string => {
  const trimmed = value.trim();
  if (!/^[1-9][0-9]*$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw invalidConfigValue(key, 'must be a positive integer');
  return trimmed;
};

export const nonNegativeIntegerValue = (key: string) => (value: string): string => {
  const trimmed = value.trim();
  if (!/^(0|[1-9][0-9]*)$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw invalidConfigValue(key, 'must be a non-negative integer');
  return trimmed;
};
