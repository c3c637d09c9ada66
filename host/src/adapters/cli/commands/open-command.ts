import { resolveSvcHome } from '../../../platform/config/index.js';
import { ServiceClient } from '../../../client/service-client.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';

const OPEN_USAGE = 'svc open [--json]';

/** Prints a fresh one-time link that signs a browser in to the running service's web UI. */
export async function openCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { json: { type: 'boolean' } }, OPEN_USAGE);
  const service = ServiceClient.connect(resolveSvcHome(io.env));
  const { url } = await service.request<{ url: string }>('POST', '/api/web/login-link', {});
  io.stdout.write(values.json ? `${JSON.stringify({ url })}\n` : `${url}\n(one-time link; valid for 10 minutes)\n`);
  return 0;
}
