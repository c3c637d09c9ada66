import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../support/svc-process.js';
import { formatBenchResults, type BenchResult } from './bench-result.js';
import { cliStartBenchmarks } from './cli-start.bench.js';
import { mcpBenchmarks, mcpStartBenchmarks } from './mcp.bench.js';
import { mcpHttpBenchmarks } from './mcp-http.bench.js';
import { indexSignatureBenchmarks } from './index-signature.bench.js';
import { harnessBenchmarks } from './harness.bench.js';
import { ladderHookBenchmarks } from './ladder-hook.bench.js';
import { parseThroughputBenchmarks } from './parse-throughput.bench.js';
import { runtimeBenchmarks } from './runtime.bench.js';
import { taskStartBenchmarks } from './task-start.bench.js';
import { worktreeBenchmarks } from './worktree.bench.js';

// The .mjs benches bundle their own modules; they are loaded at run time, not bundled here.
async function loadBench<T>(file: string, name: string): Promise<T> {
  const module = (await import(pathToFileURL(join(REPO_ROOT, 'test/bench', file)).href)) as Record<string, T>;
  return module[name]!;
}

/** Where a run writes its figures as JSON (`pnpm bench:check` reads them; `--json=<file>` elsewhere). */
export const LAST_RUN_FILE = join(REPO_ROOT, 'node_modules/.cache/svc-bench/last.json');

export async function main(argv: string[]): Promise<void> {
  const jsonArg = argv.find((arg) => arg.startsWith('--json='));
  const jsonFile = jsonArg ? resolve(jsonArg.slice('--json='.length)) : LAST_RUN_FILE;
  const args = argv.filter((arg) => !arg.startsWith('--'));
  const loadBefore = loadavg();
  // A group (`parse`) runs all its figures; `group:part` (`parse:codex`, `runtime:cold`) runs one;
  // `start` runs the start figures (the CLI's and `svc mcp`'s), the ones a person waits for at every command.
  const only = new Set(args.map((arg) => arg.split(':')[0]!));
  const parts = (group: string) => args.filter((arg) => arg.startsWith(`${group}:`)).map((arg) => arg.slice(group.length + 1));
  const want = (group: string) => only.size === 0 || only.has(group) || (only.has('start') && (group === 'cli' || group === 'mcp-start'));
  const results: BenchResult[] = [];
  const report = (group: string, batch: BenchResult[]) => {
    results.push(...batch.map((result) => ({ ...result, group })));
    process.stdout.write(formatBenchResults(batch));
  };
  process.stdout.write('svc benchmarks (each figure beside a baseline measured in the same run)\n\n');
  if (want('cli')) report('cli', cliStartBenchmarks());
  if (want('runtime')) report('runtime', await runtimeBenchmarks(parts('runtime')));
  if (want('install')) {
    const bench = await loadBench<(o?: { iterations?: number }) => Promise<{ name: string; ours_ms: number; baseline_ms: number; ratio: number }>>('install-artifact.bench.mjs', 'benchInstallArtifact');
    const r = await bench();
    report('install', [{ name: r.name, unit: 'ms', ours: r.ours_ms, baseline: r.baseline_ms, baselineName: 'sha256sum + tar -xzf', ratio: r.ours_ms / r.baseline_ms, goal: '≤ 1.5×' }]);
  }
  if (want('pty')) {
    const bench = await loadBench<() => Promise<{ ours: number; baseline: number; ratio: number; unit: string; notes: string }>>('pty-throughput.bench.mjs', 'ptyThroughputBench');
    const r = await bench();
    report('pty', [{ name: 'PTY output throughput into the terminal buffer (+ memory of 20 idle terminals)', unit: r.unit, ours: r.ours, baseline: r.baseline, baselineName: 'bare node-pty to nowhere', ratio: r.ratio, goal: '≥ 0.9× (higher is better)', notes: r.notes }]);
  }
  if (want('parse')) report('parse', await parseThroughputBenchmarks(parts('parse')));
  if (want('mcp')) report('mcp', await mcpBenchmarks());
  else if (want('mcp-start')) report('mcp-start', await mcpStartBenchmarks());
  if (want('mcp-http')) report('mcp-http', await mcpHttpBenchmarks());
  if (want('catalog-signature')) report('catalog-signature', indexSignatureBenchmarks());
  if (want('harness')) report('harness', await harnessBenchmarks());
  if (want('hooks')) report('hooks', ladderHookBenchmarks());
  if (want('worktree')) report('worktree', await worktreeBenchmarks());
  if (want('task-start')) report('task-start', await taskStartBenchmarks());
  process.stdout.write(`\n${results.length} figures\n`);
  const recorded = { at: new Date().toISOString(), node: process.version, cpus: cpus().length, load: { before: loadBefore, after: loadavg() } };
  mkdirSync(dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify({ recorded, groups: args, results }, null, 2)}\n`);
  process.stdout.write(`figures written to ${jsonFile}\n`);
}
