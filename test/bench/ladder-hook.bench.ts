// The escalation ladder hook runs before every question tool call, as a new Node process: its cost
// is its start. Beside it, a bare `node -e ""` given the same stdin, measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

const RUNS = Number(process.env.SVC_BENCH_HOOK_RUNS ?? 20);

export function ladderHookBenchmarks(): BenchResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ladder-'));
  try {
    const signals = join(dir, 'signals');
    mkdirSync(signals);
    writeFileSync(join(signals, 'unattended-7'), '', { mode: 0o600 });
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: { questions: [] }, session_id: 's', cwd: dir });
    const env = { PATH: process.env.PATH ?? '', SVC_TASK_ID: '7', SVC_SIGNAL_DIR: signals };
    // Hook and baseline take turns, one run of each per round, so both see the same machine load.
    const samples: [number[], number[]] = [[], []];
    const commands = [['-e', ''], [join(REPO_ROOT, 'harness/hooks/ladder-hook.cjs')]];
    for (let i = 0; i < RUNS; i++) {
      commands.forEach((args, k) => {
        const started = process.hrtime.bigint();
        const result = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
        samples[k as 0 | 1].push(Number(process.hrtime.bigint() - started) / 1e6);
        if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
      });
    }
    const baseline = median(samples[0]);
    const ours = median(samples[1]);
    return [
      {
        name: `ladder hook decision (unattended, a deny), median of ${RUNS} process runs`,
        unit: 'ms',
        ours,
        baseline,
        baselineName: 'node -e ""',
        ratio: ours / baseline,
        goal: '≤ 1.15×',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
