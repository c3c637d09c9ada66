#!/usr/bin/env node
// `pnpm bench:check`: runs `pnpm bench`, prints every figure's ratio beside its committed baseline
// (test/bench/baseline.json) and its goal, and fails only on a regression seen twice in a row: a
// figure more than 50 % worse than its baseline is measured again, and the build fails when the
// second run is as bad. A figure 20 % worse, or short of its goal, is said but does not fail: one
// shared machine's noise must not block a landing.
//   --from=<run.json>  compare a run already made instead of running the bench (with --accept it
//                      may be given more than once)
//   --accept           write the run's ratios as the new baseline (after a person read them); from
//                      several runs, each figure's worst ratio
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { baselineFromRun, compareRun, formatComparison } from '../test/bench/bench-compare.mjs';

const root = resolve(import.meta.dirname, '..');
const baselineFile = join(root, 'test/bench/baseline.json');
const args = process.argv.slice(2);
const fromAll = args.filter((arg) => arg.startsWith('--from=')).map((arg) => resolve(arg.slice('--from='.length)));
const from = fromAll[0];
const accept = args.includes('--accept');

const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-check-'));
try {
  process.exitCode = check();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function check() {
  const run = from ? readRun(from) : measure([], join(scratch, 'run.json'));
  if (!run) return 1;
  if (accept) {
    const next = baselineFromRun(run, ...fromAll.slice(1).map(readRun));
    writeFileSync(baselineFile, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`baseline written: ${Object.keys(next.figures).length} figures, the worst of ${next.recorded.runs} run(s), load ${formatLoad(run.recorded)}`);
    return 0;
  }
  const baseline = readRun(baselineFile);
  console.log(`\nbaseline: ${baseline.recorded?.at ?? 'unknown date'}, Node ${baseline.recorded?.node ?? '?'}, load ${formatLoad(baseline.recorded)}`);
  console.log(`this run: ${run.recorded.at}, Node ${run.recorded.node}, load ${formatLoad(run.recorded)}\n`);
  const rows = compareRun(run.results, baseline);
  console.log(formatComparison(rows));
  const suspects = rows.filter((row) => row.regressed);
  if (suspects.length === 0) {
    console.log(`\nbench:check: ${rows.length} figures, none more than 50 % worse than its baseline`);
    return 0;
  }
  if (from) return fail(suspects, 'in the run given (measure again without --from to confirm)');
  const groups = [...new Set(suspects.map((row) => row.group).filter(Boolean))];
  console.log(`\n${suspects.length} figure(s) more than 50 % worse than the baseline: measuring ${groups.join(', ')} again`);
  const second = measure(groups, join(scratch, 'again.json'));
  if (!second) return 1;
  const again = compareRun(second.results, baseline);
  console.log(formatComparison(again));
  const confirmed = again.filter((row) => row.regressed && suspects.some((suspect) => suspect.key === row.key));
  if (confirmed.length > 0) return fail(confirmed, 'twice in a row');
  console.log('\nbench:check: the second run is within 50 % of the baseline; no regression confirmed');
  return 0;
}

function measure(groups, file) {
  const result = spawnSync(process.execPath, ['--expose-gc', join(root, 'test/bench/run.mjs'), ...groups, `--json=${file}`], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`bench:check: pnpm bench ended with ${result.status ?? result.signal}`);
    return undefined;
  }
  return readRun(file);
}

function readRun(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function formatLoad(recorded) {
  const load = recorded?.load?.before;
  return Array.isArray(load) ? load.map((value) => value.toFixed(2)).join(' ') : 'not recorded';
}

function fail(rows, how) {
  console.error(`\nbench:check: regression ${how}:`);
  for (const row of rows) console.error(`  ${row.name}: ${row.ratio.toFixed(2)}× against ${row.baseline.toFixed(2)}× (${Math.round((row.worseBy - 1) * 100)} % worse)`);
  return 1;
}
