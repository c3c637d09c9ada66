// `svc config get|set|unset|list`: the host's system configuration (the `system_config` table).
// Keys are checked against the known list and values against each key's rule before they are stored.
import { SvcError } from '@svc-org/ai-sdk';
import { SystemConfigStore } from '@svc-org/host/platform/config';
import { SYSTEM_CONFIG_KEYS } from '../system-config-keys.js';
import type { HostServices } from '@svc-org/host/host-services';
import type { CliIo } from '@svc-org/host/adapters/cli/cli-io';
import { parseCommandArgs } from '@svc-org/host/adapters/cli/parse-command-args';
import { UsageError } from '@svc-org/host/adapters/cli/usage-error';

export const CONFIG_USAGE = `svc config get <key>
svc config set <key> <value>
svc config unset <key>
svc config list [--keys]`;

export async function configCommand(args: string[], io: CliIo, open: () => Promise<HostServices>): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, { keys: { type: 'boolean' } }, CONFIG_USAGE);
  const expect = (count: number) => {
    if (positionals.length !== count) throw new UsageError(`expected ${count} argument${count === 1 ? '' : 's'}\nusage:\n${CONFIG_USAGE}`);
  };
  switch (sub) {
    case 'get': {
      expect(1);
      const value = new SystemConfigStore((await open()).db, SYSTEM_CONFIG_KEYS).get(positionals[0]!);
      if (value === undefined) {
        throw new SvcError({ code: 'config_not_set', message: `${positionals[0]} is not set`, details: { key: positionals[0] } });
      }
      io.stdout.write(`${value}\n`);
      return 0;
    }
    case 'set': {
      expect(2);
      const stored = new SystemConfigStore((await open()).db, SYSTEM_CONFIG_KEYS).set(positionals[0]!, positionals[1]!);
      io.stdout.write(`${positionals[0]} = ${stored}\n`);
      // A value stored in another form than given (a catalog base URL becomes its index URL) is said.
      if (stored !== positionals[1]!.trim()) io.stdout.write(`(stored as ${stored}, from ${positionals[1]!.trim()})\n`);
      return 0;
    }
    case 'unset': {
      expect(1);
      const removed = new SystemConfigStore((await open()).db, SYSTEM_CONFIG_KEYS).unset(positionals[0]!);
      io.stdout.write(removed ? `${positionals[0]} unset\n` : `${positionals[0]} was not set\n`);
      return 0;
    }
    case 'list': {
      expect(0);
      if (values.keys) {
        for (const [key, { description }] of Object.entries(SYSTEM_CONFIG_KEYS).sort(([a], [b]) => (a < b ? -1 : 1))) io.stdout.write(`${key}  ${description}\n`);
        return 0;
      }
      for (const { key, value } of new SystemConfigStore((await open()).db, SYSTEM_CONFIG_KEYS).list()) io.stdout.write(`${key} = ${value}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown config command "${sub ?? ''}"\nusage:\n${CONFIG_USAGE}`);
  }
}
