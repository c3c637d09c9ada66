/** One figure of `pnpm bench`: ours beside a baseline measured in the same run, as a ratio. */
export interface BenchResult {
  name: string;
  unit: string;
  ours: number;
  baseline: number;
  baselineName: string;
  /** ours / baseline for times (lower is better); stated per result. */
  ratio: number;
  goal?: string;
  notes?: string;
  /** The `pnpm bench` group that measured it (set by the runner), so a check can measure it again. */
  group?: string;
}

export function formatBenchResults(results: BenchResult[]): string {
  const lines = results.map((r) => {
    const goal = r.goal ? `  goal ${r.goal}` : '';
    return `${r.name}\n  ours ${r.ours.toFixed(2)} ${r.unit}   ${r.baselineName} ${r.baseline.toFixed(2)} ${r.unit}   ratio ${r.ratio.toFixed(2)}×${goal}${r.notes ? `\n  ${r.notes}` : ''}`;
  });
  return `${lines.join('\n')}\n`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
