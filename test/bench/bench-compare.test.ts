import { describe, expect, test } from 'vitest';
import { baselineFromRun, compareRun, figureKey, formatComparison, goalBound, higherIsBetter, type BenchRun } from './bench-compare.mjs';
import type { BenchResult } from './bench-result.js';

function figure(name: string, ratio: number, extra: Partial<BenchResult> = {}): BenchResult {
  return { name, unit: 'ms', ours: ratio, baseline: 1, baselineName: 'bare', ratio, group: 'cli', ...extra };
}

function runOf(results: BenchResult[]): BenchRun {
  return { recorded: { at: '2026-11-28T00:00:00.000Z', node: 'v24.0.0', cpus: 2, load: { before: [0.5, 0.5, 0.5], after: [0.6, 0.6, 0.6] } }, groups: [], results };
}

describe('pnpm bench:check rules', () => {
  test('keys a figure by its words, so the run count or an artifact size in its name does not split it', () => {
    expect(figureKey('svc task list (empty home), median of 20 process runs')).toBe(figureKey('svc task list (empty home), median of 30 process runs'));
    expect(figureKey('install 5.0 MB artifact')).toBe(figureKey('install 5.2 MB artifact'));
    expect(figureKey('svc --version')).not.toBe(figureKey('svc task list'));
  });

  test('reads the direction and the bound from a figure’s goal', () => {
    expect(higherIsBetter({ goal: '≥ 0.9× (higher is better)', unit: 'MiB/s' })).toBe(true);
    expect(higherIsBetter({ goal: '≤ 1.5×', unit: 'ms' })).toBe(false);
    expect(higherIsBetter({ unit: 'lines/s' })).toBe(true);
    expect(goalBound('≤ 1.3× (4.0× when calls run one at a time)')).toEqual({ op: '≤', value: 1.3 });
    expect(goalBound('≥ 200k events/s (ratio ≥ 1)')).toEqual({ op: '≥', value: 1 });
    expect(goalBound('1.00× (no error, no lost call)')).toBeUndefined();
  });

  test('flags 20 % worse for a person and 50 % worse as a regression, in both directions', () => {
    const baseline = baselineFromRun(runOf([figure('start', 1.0), figure('throughput', 1.0, { unit: 'MiB/s', goal: '≥ 0.9× (higher is better)' })]));
    const same = compareRun([figure('start', 1.1), figure('throughput', 0.95, { unit: 'MiB/s', goal: '≥ 0.9× (higher is better)' })], baseline);
    expect(same.map((row) => [row.warn, row.regressed])).toEqual([[false, false], [false, false]]);
    const worse = compareRun([figure('start', 1.3), figure('throughput', 0.6, { unit: 'MiB/s', goal: '≥ 0.9× (higher is better)' })], baseline);
    expect(worse.map((row) => [row.warn, row.regressed])).toEqual([[true, false], [true, true]]);
    expect(worse[1]!.goalMet).toBe(false);
    expect(formatComparison(worse)).toMatch(/0\.60×\s+\(baseline 1\.00×; goal ≥ 0\.9× \(higher is better\)\)\s+← goal not met; 67 % worse than its baseline: a regression/);
  });

  test('a figure the baseline does not hold is reported, never failed', () => {
    const [row] = compareRun([figure('a new figure', 9)], baselineFromRun(runOf([figure('start', 1)])));
    expect(row!.baseline).toBeUndefined();
    expect(row!.regressed).toBe(false);
    expect(formatComparison([row!])).toContain('no baseline');
  });

  test('a baseline made of several runs keeps each figure’s worst ratio', () => {
    const runs = [
      runOf([figure('start', 1.2), figure('throughput', 0.95, { unit: 'MiB/s', goal: '≥ 0.9× (higher is better)' })]),
      runOf([figure('start', 1.4), figure('throughput', 0.91, { unit: 'MiB/s', goal: '≥ 0.9× (higher is better)' })]),
      runOf([figure('start', 1.1)]),
    ];
    const baseline = baselineFromRun(...runs);
    expect(baseline.recorded?.runs).toBe(3);
    expect(baseline.figures[figureKey('start')]!.ratio).toBe(1.4);
    expect(baseline.figures[figureKey('throughput')]!.ratio).toBe(0.91);
  });
});
