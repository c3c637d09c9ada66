// Benchmark: MCP over Streamable HTTP at /mcp of a real `svc serve`, beside the MCP SDK's bare
// Streamable HTTP echo server in the same run. Figures: a tools/call round trip of get_task (one
// database read), and 100 clients at once, each with its own session calling in turn, none of whose
// calls may fail or go missing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSvcSandbox, REPO_ROOT } from '../support/svc-process.js';
import { startServe } from '../support/svc-serve.js';
import { median, type BenchResult } from './bench-result.js';

const CALLS = Number(process.env.SVC_BENCH_MCP_CALLS ?? 1000);
const CLIENTS = Number(process.env.SVC_BENCH_MCP_CLIENTS ?? 100);
const CALLS_PER_CLIENT = 20;

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'svc-bench-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
  return client;
}

async function roundTrips(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await client.callTool({ name, arguments: args });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const at = performance.now();
    const result = await client.callTool({ name, arguments: args });
    times.push(performance.now() - at);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return median(times);
}

/** CLIENTS sessions at once, each calling CALLS_PER_CLIENT times in turn; answers checked one by one. */
async function concurrent(url: string, token: string, taskIds: number[]): Promise<{ ms: number; errors: number; answered: number; firstError?: string }> {
  const started = performance.now();
  let errors = 0;
  let answered = 0;
  let firstError: string | undefined;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, index) => {
      try {
        const client = await connect(url, token);
        // Each client calls one after another, as an agent does; the 100 clients run at once.
        for (let call = 0; call < CALLS_PER_CLIENT; call++) {
          {
            const id = taskIds[(index + call) % taskIds.length]!;
            // The SDK's 60 s default is the client's patience, not the server's: two shared cores
            // answering 2,000 calls may take longer; a lost or failed call still counts.
            const result = await client.callTool({ name: 'get_task', arguments: { id } }, undefined, { timeout: 600_000 });
            if (!result.isError && (result.structuredContent as { id: number }).id === id) answered++;
            else errors++;
          }
        }
        await client.close();
      } catch (error) {
        errors++;
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        firstError ??= `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
      }
    }),
  );
  return { ms: performance.now() - started, errors, answered, ...(firstError ? { firstError } : {}) };
}

export async function mcpHttpBenchmarks(): Promise<BenchResult[]> {
  const svc = createSvcSandbox();
  // The project's repository is a folder of its own: one that holds SVC_HOME is refused.
  const repo = mkdtempSync(join(tmpdir(), 'svc-bench-repo-'));
  const echo = spawn(process.execPath, [join(REPO_ROOT, 'test/bench/mcp-http-echo-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const serve = await startServe(svc, { SVC_LOG_LEVEL: 'warn' });
  try {
    const echoUrl = `${(await new Promise<string>((resolve) => echo.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))))).trim()}/mcp`;
    const created = await svc.run(['mcp', 'token', 'create', 'bench', '--profile', 'full']);
    const token = created.stdout.trim();
    const svcUrl = `${serve.url}/mcp`;
    const client = await connect(svcUrl, token);
    const workspace = (await client.callTool({ name: 'create_workspace', arguments: { name: 'bench' } })).structuredContent as { id: number };
    const project = (await client.callTool({ name: 'create_project', arguments: { workspaceId: workspace.id, name: 'p', repoPath: repo } })).structuredContent as { id: number };
    const taskIds: number[] = [];
    for (let i = 0; i < 20; i++) taskIds.push(((await client.callTool({ name: 'create_task', arguments: { projectId: project.id, title: `task ${i}` } })).structuredContent as { id: number }).id);

    const echoClient = await connect(echoUrl);
    const echoCall = await roundTrips(echoClient, 'echo', { text: 'hello' });
    await echoClient.close();
    const svcCall = await roundTrips(client, 'get_task', { id: taskIds.at(-1) });
    await client.close();
    const load = await concurrent(svcUrl, token, taskIds);
    return [
      {
        name: `MCP tools/call round trip over Streamable HTTP: get_task (one libsql read) — median of ${CALLS}`,
        unit: 'ms',
        ours: svcCall,
        baseline: echoCall,
        baselineName: 'SDK Streamable HTTP echo server',
        ratio: svcCall / echoCall,
        goal: '≤ 1.5×',
      },
      {
        name: `MCP over Streamable HTTP: ${CLIENTS} clients at once, ${CALLS_PER_CLIENT} get_task calls each`,
        unit: 'calls answered',
        ours: load.answered,
        baseline: CLIENTS * CALLS_PER_CLIENT,
        baselineName: 'calls made',
        ratio: load.answered / (CLIENTS * CALLS_PER_CLIENT),
        goal: '1.00× (no error, no lost call)',
        notes: `${load.errors} errors${load.firstError ? ` (first: ${load.firstError})` : ''}; all sessions in ${(load.ms / 1000).toFixed(2)} s`,
      },
    ];
  } finally {
    echo.kill();
    serve.child.kill('SIGTERM');
    await serve.exited;
    svc.cleanup();
    rmSync(repo, { recursive: true, force: true });
  }
}
