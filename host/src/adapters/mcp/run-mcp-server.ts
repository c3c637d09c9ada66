// `svc mcp`: the MCP server on stdin/stdout. stdout carries protocol messages only; logs go to
// $SVC_HOME/logs/svc.log. tools/list is answered from the build's listing; the operations load just
// after it (or at the first tool call), and the database opens on the first tool call.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SvcError } from '@svc-org/ai-sdk';
import { HOST_VERSION } from '../../platform/config/index.js';
import type { HostServices } from '../../host-services.js';
import type { HostPlugin } from '../../host-plugin.js';
import type { AnyOperation, McpProfile, OperationCaller } from '../../operation-framework/index.js';
import type { McpClaims } from './authenticate-mcp-caller.js';
import { createMcpServer, type McpTools } from './create-mcp-server.js';
import { PREBUILT_PROFILES, PREBUILT_TOOL_LISTINGS } from './prebuilt-tool-listings.js';
import { withTaskSecrets } from './task-secrets-env.js';

export interface McpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export const MCP_USAGE = `usage: svc mcp

Serves MCP over stdin/stdout for an MCP client that starts it (logs: $SVC_HOME/logs/svc.log).
  SVC_MCP_PROFILE  full (default) | assistant | task | gateway | gateway-query
  SVC_CHANNEL      gateway, gateway-query: the channel served; its scope bounds the projects read
  SVC_HOME         the data directory of the service (default ~/.svc)

example: claude mcp add -s user svc -- svc mcp
`;

/** What `svc mcp` serves: the one registry's operations, and the plugins its host is opened with. */
export interface McpComposition {
  operations: readonly AnyOperation[];
  plugins: readonly HostPlugin<any, any>[];
}

/**
 * Serves until stdin ends or `signal` aborts; resolves with the exit status. `compose` loads the
 * one registry of operations and the plugins (just after tools/list is answered, or at the first call).
 */
// long: the stdio MCP server's lifetime in order (refusals before serving, authentication, the bridge to the service, the end of stdin); its parts are built elsewhere
export async function runMcpServer(io: McpIo, signal: AbortSignal, args: readonly string[], compose: () => Promise<McpComposition>): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(MCP_USAGE);
    return 0;
  }
  if (args.length > 0) {
    io.stderr.write(`svc mcp takes no arguments (got ${args.join(' ')})\n\n${MCP_USAGE}`);
    return 2;
  }
  let profile: McpProfile;
  let claims: McpClaims;
  let env: NodeJS.ProcessEnv;
  try {
    env = withTaskSecrets(io.env);
    profile = await profileOf(env.SVC_MCP_PROFILE);
    claims = claimsOf(env);
  } catch (error) {
    // Refused before anything is served: a client sees the process end, a person reads why.
    io.stderr.write(`svc mcp: ${(error as Error).message}\n`);
    return 2;
  }

  let services: Promise<HostServices> | undefined;
  let opened: HostServices | undefined;
  // Filled in by the first call's authentication; the task id is believed only with its credential.
  const caller: OperationCaller = { via: 'mcp', mcpProfile: profile };
  const loadTools = async (): Promise<McpTools> => {
    const [{ openHostServices }, { OperationRegistry }, { ServiceClient }, { resolveSvcHome }, { authenticateMcpCaller }, { CapabilityDefinition }, { McpCallerInvoker }, { operations, plugins }] =
      await Promise.all([
        import('../../host-services.js'),
        import('../../operation-framework/index.js'),
        import('../../client/service-client.js'),
        import('../../platform/config/index.js'),
        import('./authenticate-mcp-caller.js'),
        import('./capability-definition.js'),
        import('./mcp-caller-invoker.js'),
        compose(),
      ]);
    const definition = new CapabilityDefinition(operations);
    const open = () =>
      (services ??= openHostServices({ env, builtins: false, plugins }).then((value) => {
        opened = value;
        for (const secret of [claims.taskCredential, claims.gatewayCredential]) value.logger.redactor.addSecret(secret);
        return value;
      }));
    let authenticated: Promise<HostServices> | undefined;
    const invoker = new McpCallerInvoker({
      registry: new OperationRegistry(definition.toolsOf(profile)),
      served: new OperationRegistry(operations),
      profile,
      needsSender: (tool) => definition.needsSender(profile, tool),
      authenticate: () =>
        (authenticated ??= open().then((value) => {
          authenticateMcpCaller(value, profile, claims, caller);
          value.logger.info('mcp session', {
            profile,
            ...(caller.taskId !== undefined ? { taskId: caller.taskId } : {}),
            ...(caller.gatewayId !== undefined ? { gatewayId: caller.gatewayId } : {}),
            pid: process.pid,
          });
          return value;
        })),
      services: open,
      caller,
      // Live terminals are in `svc serve`: reached over the localhost bridge with the install token.
      remote: () => {
        const client = ServiceClient.connect(resolveSvcHome(env));
        // The token never leaves in an answer or a log line, whatever error text might carry it.
        opened?.logger.redactor.addSecret(client.authorization.slice('Bearer '.length));
        return client;
      },
    });
    return { definition, invoker };
  };
  const inFlight = new Set<Promise<unknown>>();
  const names = PREBUILT_PROFILES?.tools[profile];
  const listings = PREBUILT_TOOL_LISTINGS;
  const listing = names && listings ? names.map((name) => listings[name]!) : undefined;
  const server = createMcpServer({ tools: loadTools, ...(listing ? { listing } : {}), profile, version: HOST_VERSION, logger: () => opened?.logger, inFlight });
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  // stdin ending is the client going away: answer what it already asked, then close.
  io.stdin.once('end', () => void Promise.allSettled([...inFlight]).then(() => new Promise(setImmediate)).then(() => server.close()));
  signal.addEventListener('abort', () => void server.close(), { once: true });
  await closed;
  if (services) await (await services).close();
  return 0;
}

/**
 * The profile `SVC_MCP_PROFILE` names. A profile the build listed is known without loading the
 * operation layer; anything else is read by its parser, which refuses an unknown value.
 */
async function profileOf(value: string | undefined): Promise<McpProfile> {
  if (PREBUILT_PROFILES) {
    const name = value === undefined || value === '' ? PREBUILT_PROFILES.unset : value;
    if (Object.hasOwn(PREBUILT_PROFILES.tools, name)) return name as McpProfile;
  }
  const { parseMcpProfile } = await import('../../operation-framework/index.js');
  return parseMcpProfile(value);
}

function claimsOf(env: NodeJS.ProcessEnv): McpClaims {
  const taskId = parseTaskId(env.SVC_TASK_ID);
  const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const taskCredential = present(env.SVC_TASK_CREDENTIAL);
  const gatewayCredential = present(env.SVC_GATEWAY_CREDENTIAL);
  const channel = present(env.SVC_CHANNEL);
  return {
    ...(taskId !== undefined ? { taskId } : {}),
    ...(taskCredential !== undefined ? { taskCredential } : {}),
    ...(gatewayCredential !== undefined ? { gatewayCredential } : {}),
    ...(channel !== undefined ? { channel } : {}),
  };
}

function parseTaskId(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new SvcError({ code: 'invalid_task_id', message: `SVC_TASK_ID="${value}" is not a task id` });
  return Number(value);
}
