// The plugins this host wires (the harness is the one): `svc serve`, `svc mcp` and the CLI open the
// database with them, so their migrations run and their stores are made when a process starts.
import { harnessPlugin } from '@svc-org/harness';
import type { HostPlugin } from '../host-plugin.js';

export const HOST_PLUGINS: readonly HostPlugin<any>[] = [harnessPlugin];
