// Benchmark: `svc mcp` over stdio beside the MCP SDK's own minimal echo server, in the same run.
// Figures: a tools/call round trip that reads the database (get_task, list_tasks) beside the echo
// server's, the servers taking turns call by call, and the time from spawn to the answered
// tools/list (what an MCP client waits for at start).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT, SVC_BIN } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

const CALLS = Number(process.env.SVC_BENCH_MCP_CALLS ?? 1000);
const STARTS = Number(process.env.SVC_BENCH_MCP_STARTS ?? 7);

interface Server {
  args: string[];
  env: Record<string, string>;
  /** A light tool of this server, called once after tools/list for the first-call figure. */
  firstCall: { name: string; arguments: Record<string, unknown> };
}

/**
 * Spawn → initialize → tools/list answered. The list is asked for with a plain request: the SDK
 * Client's `listTools()` also compiles a validator for every tool's output schema, on the client's
 * side (about 0.4 s for svc's 90 tools, against one tool for the echo server), which is not the
 * server's start.
 */
async function connect(server: Server): Promise<{ client: Client; startMs: number }> {
  const started = performance.now();
  const client = new Client({ name: 'svc-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: server.args, env: server.env, stderr: 'ignore' }));
  await client.request({ method: 'tools/list' }, ListToolsResultSchema);
  return { client, startMs: performance.now() - started };
}

interface RoundTrip {
  server: Server;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The round trips take turns: every server is connected at once and each round makes one call to
 * each (the first to go moves along from one round to the next), so a figure and its baseline are
 * measured under the same machine load; measured one server after the other, a load that changes
 * from one second to the next lands on one side only. The median of each.
 */
async function roundTripsInTurns(calls: RoundTrip[]): Promise<number[]> {
  const clients: Client[] = [];
  try {
    for (const call of calls) clients.push((await connect(call.server)).client);
    const once = async (k: number) => {
      const { name, arguments: args } = calls[k]!;
      const at = performance.now();
      const result = await clients[k]!.callTool({ name, arguments: args });
      const ms = performance.now() - at;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return ms;
    };
    // Warm every side (JIT, prepared paths) before timing.
    for (let i = 0; i < 300; i++) for (let k = 0; k < calls.length; k++) await once(k);
    const times = calls.map(() => [] as number[]);
    for (let i = 0; i < CALLS; i++) {
      for (let j = 0; j < calls.length; j++) {
        const k = (i + j) % calls.length;
        times[k]!.push(await once(k));
      }
    }
    return times.map(median);
  } finally {
    for (const client of clients) await client.close();
  }
}

/**
 * The servers start in turn, one of each per round, so each start and its baseline see the same
 * machine load. Per server: spawn → tools/list answered, and spawn → the first tool call answered
 * (made as soon as the list is in: what a server leaves to load after listing shows up here).
 */
async function startTimes(servers: Server[]): Promise<{ list: number; firstCall: number }[]> {
  const times = servers.map(() => ({ list: [] as number[], firstCall: [] as number[] }));
  for (let i = 0; i < STARTS; i++) {
    for (const [k, server] of servers.entries()) {
      const started = performance.now();
      const { client, startMs } = await connect(server);
      const result = await client.callTool(server.firstCall);
      if (result.isError) throw new Error(`${server.firstCall.name} failed: ${JSON.stringify(result.content)}`);
      times[k]!.list.push(startMs);
      times[k]!.firstCall.push(performance.now() - started);
      await client.close();
    }
  }
  return times.map((t) => ({ list: median(t.list), firstCall: median(t.firstCall) }));
}

/** The start figure alone (`pnpm bench start`): no database rows, no round trips. */
export async function mcpStartBenchmarks(): Promise<BenchResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-mcp-'));
  try {
    const env = { ...(process.env as Record<string, string>), SVC_HOME: home };
    const [echo, svc] = (await startTimes([
      { args: [join(REPO_ROOT, 'test/bench/mcp-echo-server.mjs')], env, firstCall: { name: 'echo', arguments: { text: 'hi' } } },
      { args: [SVC_BIN, 'mcp'], env, firstCall: { name: 'list_workspaces', arguments: {} } },
    ])) as [{ list: number; firstCall: number }, { list: number; firstCall: number }];
    return [startResult(svc.list, echo.list), firstCallResult(svc.firstCall, echo.firstCall)];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function startResult(svcStart: number, echoStart: number): BenchResult {
  return {
    name: `MCP server start: spawn → initialize → tools/list answered — median of ${STARTS}`,
    unit: 'ms',
    ours: svcStart,
    baseline: echoStart,
    baselineName: 'SDK McpServer echo tool',
    ratio: svcStart / echoStart,
    goal: '≤ 1.2×',
    notes: 'svc lists its tools from the build\'s listing; its operations load after the list, the database at the first call',
  };
}

function firstCallResult(svcFirst: number, echoFirst: number): BenchResult {
  return {
    name: `MCP server start: spawn → tools/list → first tool call answered — median of ${STARTS}`,
    unit: 'ms',
    ours: svcFirst,
    baseline: echoFirst,
    baselineName: 'SDK McpServer echo tool',
    ratio: svcFirst / echoFirst,
    notes: 'svc: list_workspaces, which opens (and on a new home migrates) the database',
  };
}

export async function mcpBenchmarks(): Promise<BenchResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-mcp-'));
  try {
    const env = { ...(process.env as Record<string, string>), SVC_HOME: home };
    const svc: Server = { args: [SVC_BIN, 'mcp'], env, firstCall: { name: 'list_workspaces', arguments: {} } };
    const echo: Server = { args: [join(REPO_ROOT, 'test/bench/mcp-echo-server.mjs')], env, firstCall: { name: 'echo', arguments: { text: 'hi' } } };
    // A few rows to read.
    const { client } = await connect(svc);
    const workspace = (await client.callTool({ name: 'create_workspace', arguments: { name: 'bench' } })).structuredContent as { id: number };
    // The project's own folder: SVC_HOME itself is refused as a repository.
    mkdirSync(join(home, 'p'));
    const project = (await client.callTool({ name: 'create_project', arguments: { workspaceId: workspace.id, name: 'p', repoPath: join(home, 'p') } })).structuredContent as { id: number };
    let taskId = 0;
    for (let i = 0; i < 20; i++) taskId = ((await client.callTool({ name: 'create_task', arguments: { projectId: project.id, title: `task ${i}` } })).structuredContent as { id: number }).id;
    await client.close();

    // One server per figure (each answers only its own tool, as it would alone), taking turns.
    const [echoCall, svcCall, svcList] = (await roundTripsInTurns([
      { server: echo, name: 'echo', arguments: { text: 'hello' } },
      { server: svc, name: 'get_task', arguments: { id: taskId } },
      { server: svc, name: 'list_tasks', arguments: { projectId: project.id } },
    ])) as [number, number, number];
    const [echoStart, svcStart] = (await startTimes([echo, svc])) as [{ list: number; firstCall: number }, { list: number; firstCall: number }];
    return [
      {
        name: `MCP tools/call round trip over stdio: get_task (one libsql read) — median of ${CALLS}`,
        unit: 'ms',
        ours: svcCall,
        baseline: echoCall,
        baselineName: 'SDK McpServer echo tool',
        ratio: svcCall / echoCall,
        goal: '≤ 1.5×',
      },
      {
        name: `MCP tools/call round trip over stdio: list_tasks (20 tasks with labels) — median of ${CALLS}`,
        unit: 'ms',
        ours: svcList,
        baseline: echoCall,
        baselineName: 'SDK McpServer echo tool',
        ratio: svcList / echoCall,
        notes: 'about 20× the payload of the echo; for scale, not a goal',
      },
      startResult(svcStart.list, echoStart.list),
      firstCallResult(svcStart.firstCall, echoStart.firstCall),
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
