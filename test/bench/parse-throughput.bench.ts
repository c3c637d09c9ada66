// Issue 5 figure: each adapter's parse throughput on a large recorded stream, beside JSON.parse of
// the same lines. The stream is a real recording with its middle lines repeated to ~60k lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isCliStreamBatch, type CliPlugin } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { REPO_ROOT } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

const TARGETS = [
  { provider: 'claude-code', recording: 'test/fake-clis/claude-code/recordings/stream-tool.stdout' },
  { provider: 'codex', recording: 'test/fake-clis/codex/recordings/tool.stdout' },
  { provider: 'gemini-cli', recording: 'test/fake-clis/gemini-cli/recordings/stream-tool.stdout' },
  { provider: 'qwen-code', recording: 'test/fake-clis/qwen/recordings/stream-json-tool.stdout' },
];
const TARGET_LINES = 60_000;

function amplify(recorded: string): string[] {
  const lines = recorded.split('\n').filter((line) => line.trim() !== '');
  const [first, ...rest] = lines;
  const last = rest.pop()!;
  const middle = rest.length > 0 ? rest : [last];
  const out = [first!];
  while (out.length < TARGET_LINES) out.push(...middle);
  out.push(last);
  return out;
}

/** This process's CPU time (every thread's, user and system), in seconds. */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function chunk(text: string, size = 64 * 1024): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `providers` narrows the run to those providers (`pnpm bench parse:codex`); none: all four. */
export async function parseThroughputBenchmarks(providers: string[] = []): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const target of TARGETS.filter((t) => providers.length === 0 || providers.includes(t.provider))) {
    const lines = amplify(readFileSync(join(REPO_ROOT, target.recording), 'utf8'));
    const stdout = chunk(`${lines.join('\n')}\n`);
    const entry = join(REPO_ROOT, 'extensions/cli-providers', target.provider, 'dist/svc-cli-provider.js');
    const { svcCliPlugin } = (await import(pathToFileURL(entry).href)) as { svcCliPlugin: CliPlugin };
    const ours: number[] = [];
    const baseline: number[] = [];
    let events = 0;
    for (let round = 0; round < 6; round++) {
      const adapter = await svcCliPlugin.createAdapter();
      const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], spawn: () => ({ stdout, exitCode: 0 }), cli: { command: target.provider, version: '0.0.0' } });
      // CPU time, not the clock: the adapter allocates far more than JSON.parse, and on a busy machine
      // the collector's helper threads wait for a core, which the clock would charge to the adapter.
      const started = cpuSeconds();
      events = 0;
      // As the host's worker reads a stream: an adapter's batch is one item, its events counted one by one.
      for await (const item of adapter.stream!({ prompt: 'bench', cwd: '/tmp' }, host.context())) events += isCliStreamBatch(item) ? item.length : 1;
      const seconds = cpuSeconds() - started;
      const parseStarted = cpuSeconds();
      let parsed = 0;
      for (const line of lines) if (JSON.parse(line)) parsed++;
      const parseSeconds = cpuSeconds() - parseStarted;
      if (round === 0) continue;
      ours.push(lines.length / seconds);
      baseline.push(parsed / parseSeconds);
    }
    const oursRate = median(ours);
    const baseRate = median(baseline);
    results.push({
      name: `${target.provider} adapter parse throughput (${lines.length} recorded lines → ${events} events)`,
      unit: 'lines/s',
      ours: oursRate,
      baseline: baseRate,
      baselineName: 'JSON.parse of the same lines',
      ratio: oursRate / baseRate,
      goal: '≥ 0.6× (higher is better)',
      notes: `${Math.round((oursRate * events) / lines.length)} events/s; ratio is ours ÷ JSON.parse (higher is better, ≤ 1 expected)`,
    });
  }
  return results;
}
