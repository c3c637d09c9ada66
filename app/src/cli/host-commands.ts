// Commands that are not (yet) the face of a declared operation: provider calls, extension
// management, system configuration, integrations and the service itself. Each parses its own
// arguments; these entries give them a place in `svc --help`, a `--help` of their own, and
// "did you mean".
import * as extensionOperations from '@svc-org/host/operations/extension';
import {
  enableExtension,
  getExtension,
  getExtensionPermissions,
  installExtension,
  listCatalog,
  listExtensions,
  listOutdatedExtensions,
  removeDevExtension,
  rollbackExtension,
  uninstallExtension,
  updateExtension,
} from '@svc-org/host/operations/extension';
import type { AnyOperation } from '@svc-org/host/operation-framework';
import { rawCommand, type CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import { streamOf } from '@svc-org/host/adapters/cli/cli-io';
import { declaredCommands } from '@svc-org/host/adapters/cli/declared-commands';

// `uses`: the extension operations the command runs (`ext doctor`, `ext new` and the local `ext list --json` view use the services).
const ext = (name: string, description: string, usage: string, example: string, ...uses: AnyOperation[]): CliCommand => ({
  ...rawCommand('ext', name, description, usage, [example], async (run) => {
    const { extCommand } = await import('@svc-org/host/adapters/cli/commands/ext-command');
    return extCommand([name, ...run.args], run.io, run.open, run.signal, run.invoke);
  }),
  ...(uses.length > 0 ? { alsoUses: uses } : {}),
});

const config = (name: string, description: string, usage: string, example: string): CliCommand =>
  rawCommand('config', name, description, usage, [example], async (run) => {
    const { configCommand } = await import('./config-command.js');
    return configCommand([name, ...run.args], run.io, run.open);
  });

const integration = (kind: 'mcp' | 'hooks' | 'skills', description: string, usage: string, examples: string[]): CliCommand =>
  rawCommand('integration', kind, description, usage, examples, async (run) => {
    const { integrationCommand } = await import('@svc-org/host/adapters/cli/commands/integration-command');
    return integrationCommand([kind, ...run.args], run.io, run.open, run.signal);
  });

export const HOST_COMMANDS: CliCommand[] = [
  rawCommand(
    'query',
    '',
    'Send one prompt to a provider and stream the answer (--json: one canonical event per line).',
    '--provider <id> [--connection <name>] [--model <m>] [--resume <id> | --continue] [--max-turns <n>] [--cwd <dir>] [--timeout <seconds>] [--json] "<prompt>"',
    ['svc query --provider svc-official.claude-code "Summarise README.md"'],
    async (run) => {
      const { queryCommand } = await import('@svc-org/host/adapters/cli/commands/query-command');
      return queryCommand(run.args, run.io, run.open, run.signal);
    },
  ),
  rawCommand(
    'session',
    '',
    "Open the provider's interactive CLI here, through the host's terminal (needs a terminal).",
    '--provider <id> [--connection <name>] [--resume <id> | --continue] [--model <m>] [--cwd <dir>]',
    ['svc session --provider svc-official.claude-code --continue'],
    async (run) => {
      const { sessionCommand } = await import('@svc-org/host/adapters/cli/commands/session-command');
      return sessionCommand(run.args, run.io, run.open, run.signal);
    },
  ),
  rawCommand('models', '', 'List the models a provider offers.', '--provider <id> [--connection <name>] [--json]', ['svc models --provider svc-official.codex --json'], async (run) => {
    const { modelsCommand } = await import('@svc-org/host/adapters/cli/commands/models-command');
    return modelsCommand(run.args, run.io, run.open, run.signal);
  }),
  rawCommand(
    'serve',
    '',
    'Run the service: HTTP on 127.0.0.1 and the task terminals, until Ctrl-C (the terminals keep running for the next start unless --stop-terminals).',
    '[--port <n>] [--stop-terminals]   (port: default $SVC_PORT or 7878; 0 picks a free port)',
    ['svc serve --port 0', 'svc serve --stop-terminals'],
    async (run) => {
    // Loaded on demand: the HTTP stack is for the service only, not for every `svc` command.
      const { serveCommand } = await import('./serve-command.js');
      return serveCommand(run.args, run.io, run.signal);
    },
  ),
  rawCommand('doctor', '', 'Say what this machine gives svc: the Node line, what the hardened mode enforces here, the data folder.', '[--json]', ['svc doctor'], async (run) => {
    const { doctorCommand } = await import('@svc-org/host/adapters/cli/commands/doctor-command');
    return doctorCommand(run.args, run.io);
  }),
  rawCommand('open', '', 'Print a fresh one-time link that signs a browser in to the web UI of the running service.', '[--json]', ['svc open'], async (run) => {
    const { openCommand } = await import('@svc-org/host/adapters/cli/commands/open-command');
    return openCommand(run.args, run.io);
  }),
  // `svc mcp token` is the harness's (its mcp-token-command module, a subcommand of this one).
  rawCommand(
    'mcp',
    '',
    'Serve MCP over stdio for an MCP client (SVC_MCP_PROFILE=full|assistant|task|gateway|gateway-query; default full); `svc mcp token` makes, lists and revokes the bearer tokens of clients over HTTP (/mcp on svc serve).',
    '[token create <name> --profile <profile> [--task <id>] [--expires 30d] | token list | token revoke <name|id> | token revoke --id <id> | token revoke --name <name>]',
    [
      'svc mcp   # started by an MCP client, e.g.: claude mcp add -s user svc -- svc mcp',
      'SVC_MCP_PROFILE=assistant svc mcp',
      'svc mcp token create phone --profile assistant --expires 30d',
    ],
    async (run) => {
      // host/bin/svc.cjs starts the MCP server's own, smaller bundle; this door is for in-process use.
      const [{ runMcpServer }, { composeMcp }] = await Promise.all([import('@svc-org/host/adapters/mcp/run-mcp-server'), import('../compose-mcp.js')]);
      return runMcpServer({ stdin: run.io.stdin, stdout: streamOf(run.io.stdout), stderr: streamOf(run.io.stderr), env: run.io.env }, run.signal, run.args, composeMcp);
    },
  ),
  rawCommand(
    'completion',
    '',
    'Print a shell completion script (commands, flags, provider ids, connection names, task ids).',
    'bash|zsh|fish',
    ['svc completion bash   # in ~/.bashrc: source <(svc completion bash)', 'svc completion zsh    # in ~/.zshrc, after compinit: source <(svc completion zsh)', 'svc completion fish > ~/.config/fish/completions/svc.fish'],
    async (run) => {
      const { completionCommand } = await import('./completion-command.js');
      return completionCommand(run.args, run.io, run.allCommands);
    },
  ),
  // `svc ext show`, `disable` and `stats` are the commands their operations declare (`cli`); these are written by hand.
  ...declaredCommands(
    [extensionOperations],
    [
      ext('list', 'List registered extensions with their state and granted permissions.', '[--json]', 'svc ext list --json', listExtensions),
      ext('dev', 'Register (or remove) a provider from a local folder you are developing.', 'add <absolute dir> | remove <id>', 'svc ext dev add "$PWD"', removeDevExtension),
      ext('enable', 'Enable an extension after you confirm the permissions it asks for.', '<id> [--yes] [--connection <name>] [--isolation process|worker] [--json]', 'svc ext enable acme.my-cli', getExtension, getExtensionPermissions, enableExtension),
      ext('doctor', "Run an extension's preflight checks and say what to fix.", '<id> [--connection <name>] [--json]', 'svc ext doctor svc-official.claude-code'),
      ext('new', 'Scaffold a new provider package.', '<name> [--dir <parent folder>] [--publisher <publisher>] [--command <cli executable>]', 'svc ext new my-cli --publisher acme'),
      ext('pack', 'Pack a built provider folder into its deterministic artifact and the declaration a catalog needs.', '<provider folder> [--out <dir>] [--json]', 'svc ext pack . --out ../packed'),
      ext('catalog', 'List what the configured extension catalog offers.', '[--json]', 'svc ext catalog', listCatalog),
      ext('install', 'Install an exact version from the catalog (verified, disabled until enabled).', '<id>@<exact version> [--json]', 'svc ext install acme.my-cli@1.2.0', installExtension),
      ext('outdated', 'List installed catalog extensions with the newest version compatible with this svc, Node.js and the CLI.', '[--json]', 'svc ext outdated', listOutdatedExtensions),
      ext('update', 'Update an installed catalog extension to an exact version, or (no version) to the newest compatible one; --all updates each.', '<id>[@<exact version>] | --all [--json]', 'svc ext update acme.my-cli', listOutdatedExtensions, updateExtension),
      ext('rollback', 'Go back to the previously installed version.', '<id> [--json]', 'svc ext rollback acme.my-cli', rollbackExtension),
      ext('uninstall', 'Remove an installed catalog extension.', '<id> [--force] [--json]', 'svc ext uninstall acme.my-cli', uninstallExtension),
    ],
    ['list', 'dev', 'show', 'enable', 'disable', 'doctor', 'stats', 'new', 'pack', 'catalog', 'install', 'outdated', 'update', 'rollback', 'uninstall'],
  ),
  config('get', 'Print one system setting.', '<key>', 'svc config get extensions.catalogUrl'),
  config('set', 'Store one system setting (checked against its rule).', '<key> <value>', 'svc config set extensions.catalogUrl https://example.com/svc-catalog/index.v1.json'),
  config('unset', 'Remove one system setting.', '<key>', 'svc config unset extensions.catalogUrl'),
  config('list', 'Print every stored system setting (--keys: every known key).', '[--keys]', 'svc config list --keys'),
  integration('mcp', "List, add or remove MCP servers in a provider CLI's configuration.", 'list|add|remove --provider <id> [--scope user|project] [--project-dir <dir>] [<name> (--command <cmd> [--arg <a>]... [--env K=V]... | --url <url>)]', [
    'svc integration mcp add files --provider svc-official.claude-code --command npx --arg -y --arg @modelcontextprotocol/server-filesystem',
  ]),
  integration('hooks', "List, add or remove hooks in a provider CLI's configuration.", 'list|add|remove --provider <id> [--matcher <tool pattern>] [--command <cmd>] [--scope user|project]', [
    'svc integration hooks list --provider svc-official.codex',
  ]),
  integration('skills', "List, add or remove skills of a provider CLI.", 'list|add|remove --provider <id> [<name> --file <SKILL.md>] [--scope user|project]', [
    'svc integration skills add review --provider svc-official.claude-code --file ./SKILL.md',
  ]),
];
