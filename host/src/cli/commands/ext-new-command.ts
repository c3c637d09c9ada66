import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../usage-error.js';

export async function extNew(_args: string[], _io: CliIo, _open: () => Promise<HostServices>): Promise<number> {
  throw new UsageError('svc ext new is being written');
}
