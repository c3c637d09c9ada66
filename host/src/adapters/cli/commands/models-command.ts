import type { HostServices } from '../../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { terminalJson, terminalLine } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'svc models --provider <id> [--connection <name>] [--json]';

export async function modelsCommand(args: string[], io: CliIo, open: () => Promise<HostServices>, signal: AbortSignal): Promise<number> {
  const { values } = parseCommandArgs(args, { provider: { type: 'string', short: 'p' }, connection: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const services = await open();
  const provider = values.provider ?? (values.connection ? services.connections.get(values.connection).providerId : undefined);
  if (!provider) throw new UsageError(`--provider is required\nusage: ${USAGE}`);
  const target = await services.extensions.prepare(provider, { connection: values.connection, signal });
  const models = await services.extensions.models(target);
  if (values.json) {
    io.stdout.write(`${terminalJson(JSON.stringify(models, null, 2))}\n`);
    return 0;
  }
  for (const model of models) {
    const tags = [model.default ? 'default' : '', model.contextWindow ? `${model.contextWindow} tokens` : ''].filter(Boolean).join(', ');
    io.stdout.write(`${terminalLine(`${model.id.padEnd(28)} ${model.displayName}${tags ? `  (${tags})` : ''}`)}\n`);
  }
  return 0;
}
