// The MCP project's own conformance suite (@modelcontextprotocol/conformance, pinned in
// pinned-clis.json) run against /mcp of a real `svc serve`, with a token of the `full` profile. The
// scenarios svc does not apply to are in mcp-server-baseline.yml, each with its reason; any other
// failure, or a baselined scenario that passes, fails this test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { startBearerProxy, type BearerProxy } from './support/bearer-proxy.js';

const SuitesSchema = z.record(z.string(), z.object({ package: z.string(), version: z.string(), entry: z.string(), node: z.string() }));

let svc: SvcSandbox;
let serve: ServeProcess;
let proxy: BearerProxy;
let output: string;

beforeAll(async () => {
  svc = createSvcSandbox();
  const created = await svc.run(['mcp', 'token', 'create', 'conformance', '--profile', 'full']);
  if (created.code !== 0) throw new Error(created.stderr);
  serve = await startServe(svc);
  proxy = await startBearerProxy(serve.url, created.stdout.trim());
  output = mkdtempSync(join(tmpdir(), 'svc-mcp-conformance-'));
});

afterAll(async () => {
  await proxy?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
  if (output) rmSync(output, { recursive: true, force: true });
});

test('the MCP conformance suite passes against /mcp except the baselined scenarios', async () => {
  const suite = SuitesSchema.parse(JSON.parse(process.env.SVC_CONFORMANCE_SUITES ?? '{}'))['mcp-server'];
  if (!suite) throw new Error('the MCP conformance suite was not installed for this run (pnpm test:conformance -- mcp-server)');
  const baseline = join(REPO_ROOT, 'test/conformance/mcp-server-baseline.yml');
  const run = await new Promise<{ code: number | null; text: string }>((resolve) => {
    const child = spawn(suite.node, [suite.entry, 'server', '--url', `${proxy.url}/mcp`, '--expected-failures', baseline, '-o', output], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('close', (code) => resolve({ code, text }));
  });
  if (process.env.SVC_CONFORMANCE_DEBUG) process.stderr.write(run.text);
  expect(run.text).toContain('Baseline check passed');
  expect(run.code, run.text).toBe(0);
  // The suite's summary: one line per scenario, ✓ when all its checks passed.
  const passed = [...run.text.matchAll(/^✓ ([a-z0-9-]+): \d+ passed, 0 failed/gm)].map((match) => match[1]);
  expect(passed).toEqual(expect.arrayContaining(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']));
}, 600_000);
