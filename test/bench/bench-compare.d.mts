// Types of bench-compare.mjs (plain JavaScript, so scripts/bench-check.mjs runs it without a build).
import type { BenchResult } from './bench-result.js';

export interface BenchRun {
  recorded: { at: string; node: string; cpus: number; load: { before: number[]; after: number[] } };
  groups: string[];
  results: BenchResult[];
}
export interface Baseline {
  recorded?: BenchRun['recorded'] & { runs?: number };
  figures: Record<string, { ratio: number; name: string }>;
}
export interface ComparedFigure {
  key: string;
  name: string;
  group: string | undefined;
  ratio: number;
  baseline: number | undefined;
  goal: string | undefined;
  goalMet: boolean | undefined;
  higherIsBetter: boolean;
  worseBy: number | undefined;
  warn: boolean;
  regressed: boolean;
}
export function figureKey(name: string): string;
export function higherIsBetter(result: Pick<BenchResult, 'goal' | 'notes' | 'unit'> & { higherIsBetter?: boolean }): boolean;
export function goalBound(goal: string | undefined): { op: '≤' | '≥'; value: number } | undefined;
export function worseBy(ratio: number, baselineRatio: number, higher: boolean): number;
export function compareRun(results: BenchResult[], baseline: Baseline | undefined, limits?: { warnAt?: number; failAt?: number }): ComparedFigure[];
export function formatComparison(rows: ComparedFigure[]): string;
export function baselineFromRun(...runs: BenchRun[]): Baseline;
