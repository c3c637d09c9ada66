#!/usr/bin/env node
// `pnpm bench:table [-- --from=<run.json>]`: rewrites the performance table of docs/performance.md from
// a `pnpm bench` run's JSON (the last run by default), with the machine's load beside it, so no figure
// there is copied by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const page = join(root, 'docs/performance.md');
const from = process.argv.slice(2).find((arg) => arg.startsWith('--from='))?.slice('--from='.length);
const run = JSON.parse(readFileSync(from ? resolve(from) : join(root, 'node_modules/.cache/svc-bench/last.json'), 'utf8'));

const START = '<!-- bench-table:start (written by pnpm bench:table; do not edit by hand) -->';
const END = '<!-- bench-table:end -->';
const cell = (text) => String(text).replaceAll('|', '\\|');
const load = (values) => values.map((value) => value.toFixed(2)).join(' / ');
const { recorded } = run;
const rows = run.results.map((r) =>
  `| ${cell(r.name)} | ${r.ours.toFixed(2)} ${r.unit} | ${r.baseline.toFixed(2)} ${r.unit} (${cell(r.baselineName)}) | ${r.ratio.toFixed(2)}× | ${cell(r.goal ?? '—')} |`,
);
const table = [
  START,
  `One \`pnpm bench\` run on ${recorded.at.slice(0, 10)}: Node ${recorded.node}, ${recorded.cpus} cores, load average (1 / 5 / 15 min) ${load(recorded.load.before)} before the run and ${load(recorded.load.after)} after it.`,
  '',
  '| figure | ours | baseline (same run) | ratio | goal |',
  '|---|---|---|---|---|',
  ...rows,
  END,
].join('\n');

const text = readFileSync(page, 'utf8');
const at = text.indexOf(START);
const end = text.indexOf(END);
if (at < 0 || end < at) {
  console.error(`bench:table: ${page} has no table markers (${START} … ${END})`);
  process.exit(1);
}
writeFileSync(page, text.slice(0, at) + table + text.slice(end + END.length));
console.log(`bench:table: ${rows.length} figures written to docs/performance.md`);
