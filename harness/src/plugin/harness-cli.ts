// The harness's CLI command modules: where each sits in `svc --help` (after the module it names) and
// how it is loaded, only when one of its commands runs or a help lists them.
import type { PluginCommandModule } from '@svc-org/host/host-plugin';
import type { CliCommand } from '@svc-org/host/adapters/cli';

export const HARNESS_CLI: readonly PluginCommandModule<CliCommand>[] = [
  // `svc mcp token`, a subcommand of the host's `svc mcp`.
  { module: 'mcp-token-command', after: 'host-commands', load: async () => (await import('../cli/mcp-token-command.js')).MCP_TOKEN_COMMANDS },
  // `svc task comment`: between the worktree's review commands and `svc task revert`.
  { module: 'review-commands', after: 'task-worktree-commands', load: async () => (await import('../cli/review-commands.js')).REVIEW_COMMANDS },
  { module: 'approval-commands', after: 'task-revert-commands', load: async () => (await import('../cli/approval-commands.js')).APPROVAL_COMMANDS },
  // The board in the terminal, the notification center, gateways and channels.
  { module: 'status-command', after: 'knowledge-commands', load: async () => (await import('../cli/status-command.js')).STATUS_COMMANDS },
  { module: 'harness-commands', after: 'knowledge-commands', load: async () => (await import('../cli/harness-commands.js')).HARNESS_COMMANDS },
  { module: 'gateway-commands', after: 'knowledge-commands', load: async () => (await import('../cli/gateway-commands.js')).GATEWAY_COMMANDS },
];
