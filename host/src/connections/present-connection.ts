import { SENSITIVE_KEY } from '../logging/index.js';
import { MASK, type ConnectionRecord } from './connection-record.js';

/**
 * A connection as an API shows it: sensitive settings masked (their presence visible), and
 * environment values masked when their name says they hold a secret (e.g. OPENAI_API_KEY).
 */
export function presentConnection(record: ConnectionRecord, secretKeys: readonly string[]) {
  const maskedSettings = Object.fromEntries(secretKeys.map((key) => [key, MASK]));
  const env = Object.fromEntries(Object.entries(record.env).map(([key, value]) => [key, SENSITIVE_KEY.test(key) ? MASK : value]));
  return { ...record, env, config: { ...record.config, ...maskedSettings }, secretKeys: [...secretKeys] };
}
