// `svc mcp token create|list|revoke`: bearer tokens for MCP clients over Streamable HTTP (/mcp on
// `svc serve`). The token is printed once by `create`; nothing else ever shows it. A subcommand of the
// host's `svc mcp`: listed in its help, not in `svc --help`.
import { type CliCommand, type CliRun, parseCommandArgs, positiveId, printJson, printTable, UsageError } from '@svc-org/host/adapters/cli';
import { MCP_PROFILES, type McpProfile } from '@svc-org/host/operation-framework';
import { createMcpToken, listMcpTokens, revokeMcpToken } from '../mcp/tokens/index.js';
import { withPlugins } from './with-plugins.js';

export const MCP_TOKEN_USAGE = `svc mcp token create <name> --profile <${MCP_PROFILES.join('|')}> [--task <id>] [--expires <30d|12h|90m>] [--json]
svc mcp token list [--json]
svc mcp token revoke <name|id> | --id <id> | --name <name> [--json]`;

export const MCP_TOKEN_COMMANDS: CliCommand[] = withPlugins([
  {
    group: 'mcp',
    name: 'token',
    subcommand: true,
    description: 'Make, list and revoke the bearer tokens of MCP clients over HTTP (/mcp on svc serve).',
    positionals: '<create|list|revoke> …',
    options: {},
    raw: true,
    examples: MCP_TOKEN_USAGE.split('\n'),
    run: (run) => mcpTokenCommand(run.args, run),
  },
]);

async function mcpTokenCommand(args: string[], run: CliRun): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values, positionals } = parseCommandArgs(
      rest,
      { profile: { type: 'string' }, task: { type: 'string' }, expires: { type: 'string' }, json: { type: 'boolean' } },
      MCP_TOKEN_USAGE,
    );
    if (positionals.length !== 1) throw new UsageError(`say the token's name, once\nusage:\n${MCP_TOKEN_USAGE}`);
    if (!values.profile) throw new UsageError(`say which profile the token's client sees (--profile ${MCP_PROFILES.join('|')})`);
    if (!(MCP_PROFILES as readonly string[]).includes(values.profile)) {
      throw new UsageError(`--profile ${values.profile} is not a profile; use one of ${MCP_PROFILES.join(', ')}`);
    }
    const { token, record } = await run.invoke(createMcpToken, {
      name: positionals[0]!,
      profile: values.profile as McpProfile,
      ...(values.task !== undefined ? { taskId: positiveId(values.task, '--task') } : {}),
      ...(values.expires !== undefined ? { expires: values.expires } : {}),
    });
    if (values.json) printJson(run.io, { token, record });
    else {
      run.io.stdout.write(`${token}\n`);
      run.io.stderr.write(
        `MCP token ${record.name} (profile ${record.profile}${record.taskId !== null ? `, task ${record.taskId}` : ''}, ${record.expiresAt ? `expires ${record.expiresAt}` : 'no expiry'}).\n` +
          'It is shown this once; only its hash is kept. Clients send it as "Authorization: Bearer <token>" to /mcp of svc serve.\n',
      );
    }
    return 0;
  }
  if (action === 'list') {
    const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, MCP_TOKEN_USAGE);
    const { items } = await run.invoke(listMcpTokens, {});
    if (values.json) printJson(run.io, items);
    else if (items.length === 0) run.io.stdout.write('no MCP tokens (make one with `svc mcp token create <name> --profile <profile>`)\n');
    else
      printTable(
        run.io,
        ['ID', 'NAME', 'PROFILE', 'TASK', 'STATE', 'EXPIRES', 'LAST USED'],
        items.map((t) => [String(t.id), t.name, t.profile, t.taskId === null ? '-' : String(t.taskId), t.state, t.expiresAt ?? 'never', t.lastUsedAt ?? '-']),
        run.style,
      );
    return 0;
  }
  if (action === 'revoke') {
    const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' }, id: { type: 'string' }, name: { type: 'string' } }, MCP_TOKEN_USAGE);
    const given = [...positionals.map((token) => ({ token })), ...(values.id !== undefined ? [{ token: String(positiveId(values.id, '--id')), by: 'id' as const }] : []), ...(values.name !== undefined ? [{ token: values.name, by: 'name' as const }] : [])];
    if (given.length !== 1) throw new UsageError(`say which token to revoke, once (its name or id, or --id <id> or --name <name>)\nusage:\n${MCP_TOKEN_USAGE}`);
    const record = await run.invoke(revokeMcpToken, given[0]!);
    if (values.json) printJson(run.io, record);
    else run.io.stdout.write(`MCP token ${record.name} revoked (${record.revokedAt}); its clients are refused from their next request\n`);
    return 0;
  }
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    run.io.stdout.write(`usage:\n${MCP_TOKEN_USAGE}\n`);
    return action === undefined ? 2 : 0;
  }
  throw new UsageError(`unknown svc mcp token command "${action}"\nusage:\n${MCP_TOKEN_USAGE}`);
}
