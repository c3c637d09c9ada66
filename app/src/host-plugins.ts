// The plugins this host wires (the harness is the one), and the one module of the host that names
// one: `svc serve`, `svc mcp` and the CLI open the database with them, so their migrations run and
// their stores are made when a process starts; the one registry takes their operations, the command
// table their CLI modules, the MCP adapter their answer to who a caller is
// (test/package-boundaries.test.ts holds every other module of the host to it).
import { harnessPlugin } from '@svc-org/harness';
import type { CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import type { HostPlugin } from '@svc-org/host/host-plugin';

export const HOST_PLUGINS: readonly HostPlugin<any, CliCommand>[] = [harnessPlugin];
