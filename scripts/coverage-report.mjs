#!/usr/bin/env node
// Prints the V8 coverage that `vitest --coverage` wrote to coverage/ per folder (lines and
// branches), then every statement of the watched folders that no test executed, by file and line,
// with the reason when one is recorded below. Writes the same text to coverage/folders.txt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const DIR = join(ROOT, 'coverage');
/** Folders whose every statement should be executed by some test; the report lists what is not. */
const WATCHED = ['harness/src/routing', 'harness/src/messaging'];
/**
 * Why a statement of a watched folder is not executed in-process, by file. Coverage is measured in
 * the test processes only: code that runs only inside the `svc serve` and `svc mcp` children of the
 * end-to-end tests (a live terminal, the localhost bridge) is exercised there but not counted.
 */
const WHY_NOT = {
  'harness/src/messaging/submit-reply.ts':
    "the prompt path (submitMessage: a bracketed-paste prompt and the CLI's prompt hook) needs a CLI with turn hooks, which the in-process echo CLI lacks: it runs inside `svc serve` with the Qwen Code stand-in (harness/test/e2e)",
  'harness/src/messaging/reply-to-ask.ts': 'the no_pending after a lost race for the OPEN ask (two replies in the same instant) is not staged in-process',
  'harness/src/messaging/deliver-answer.ts': 'a failure after the Enter went out (the CLI dying mid-confirmation) is not staged in-process',
  'harness/src/routing/continue-bound-task.ts':
    'a lost race for the OPEN ask, a typing failure after the ask was answered, and the crash point (SVC_TEST_CRASH_AT, run by the kill -9 journey in harness/test/e2e/chat-reply-journeys.test.ts inside `svc serve`)',
  'harness/src/routing/recover-gateway-request.ts':
    'the `continue` for a message with no outbound row: every discussion reply and FINAL_RESULT is queued with its outbound row in one transaction (queuePlatformMessage) and no code deletes outbound rows, so the guard only protects against a hand-edited database',
  'harness/src/routing/start-routing.ts':
    "started only by `svc serve`: run in the service process by the end-to-end tests; its worker and event consumer are tested on their own (harness/test/workbench)",
};

const summaryFile = join(DIR, 'coverage-summary.json');
if (!existsSync(summaryFile)) {
  console.error('coverage/coverage-summary.json is missing: run `pnpm test:coverage` (vitest run --coverage) first');
  process.exit(1);
}
const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
const folders = new Map();
for (const [file, data] of Object.entries(summary)) {
  if (file === 'total') continue;
  const folder = dirname(relative(ROOT, file));
  const sum = folders.get(folder) ?? { lines: [0, 0], branches: [0, 0] };
  sum.lines[0] += data.lines.covered;
  sum.lines[1] += data.lines.total;
  sum.branches[0] += data.branches.covered;
  sum.branches[1] += data.branches.total;
  folders.set(folder, sum);
}

const pct = ([covered, total]) => (total === 0 ? '  -  ' : `${((covered / total) * 100).toFixed(1).padStart(5)}%`);
const out = [];
const width = Math.max(...[...folders.keys()].map((f) => f.length), 6);
out.push(`${'folder'.padEnd(width)}   lines    branches`);
for (const folder of [...folders.keys()].sort()) {
  const sum = folders.get(folder);
  out.push(`${folder.padEnd(width)}  ${pct(sum.lines)}  ${pct(sum.branches)}   (${sum.lines[0]}/${sum.lines[1]} lines, ${sum.branches[0]}/${sum.branches[1]} branches)`);
}
const total = summary.total;
out.push(`${'total'.padEnd(width)}  ${pct([total.lines.covered, total.lines.total])}  ${pct([total.branches.covered, total.branches.total])}`);

const final = JSON.parse(readFileSync(join(DIR, 'coverage-final.json'), 'utf8'));
for (const watched of WATCHED) {
  out.push('', `statements no test executed in ${watched}:`);
  let none = true;
  for (const [file, data] of Object.entries(final).sort(([a], [b]) => a.localeCompare(b))) {
    const path = relative(ROOT, file);
    if (dirname(path) !== watched) continue;
    const lines = [...new Set(Object.entries(data.s).filter(([, hits]) => hits === 0).map(([id]) => data.statementMap[id].start.line))].sort((a, b) => a - b);
    if (lines.length === 0) continue;
    none = false;
    out.push(`  ${path}: lines ${ranges(lines)}${WHY_NOT[path] ? `\n    why: ${WHY_NOT[path]}` : ''}`);
  }
  if (none) out.push('  none');
}

const text = `${out.join('\n')}\n`;
writeFileSync(join(DIR, 'folders.txt'), text);
process.stdout.write(text);

/** 3,4,5,9 → "3-5, 9". */
function ranges(lines) {
  const parts = [];
  let start = lines[0];
  let prev = lines[0];
  for (const line of [...lines.slice(1), Number.NaN]) {
    if (line === prev + 1) {
      prev = line;
      continue;
    }
    parts.push(start === prev ? String(start) : `${start}-${prev}`);
    start = line;
    prev = line;
  }
  return parts.join(', ');
}
