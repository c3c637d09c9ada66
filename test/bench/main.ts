import { formatBenchResults, type BenchResult } from './bench-result.js';
import { parseThroughputBenchmarks } from './parse-throughput.bench.js';
import { runtimeBenchmarks } from './runtime.bench.js';

export async function main(): Promise<void> {
  const results: BenchResult[] = [];
  process.stdout.write('svc benchmarks (each figure beside a baseline measured in the same run)\n\n');
  results.push(...(await runtimeBenchmarks()));
  results.push(...(await parseThroughputBenchmarks()));
  process.stdout.write(formatBenchResults(results));
}
