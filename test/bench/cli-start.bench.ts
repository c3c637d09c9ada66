// What a person waits for at every `svc` command: the executable's start. Each figure is the median
// wall time of fresh processes beside a bare `node -e ""` measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SVC_BIN } from '../support/svc-process.js';
import { median, type BenchResult } from './bench-result.js';

const RUNS = Number(process.env.SVC_BENCH_CLI_RUNS ?? 15);

export function cliStartBenchmarks(): BenchResult[] {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-cli-'));
  const existingHome = mkdtempSync(join(tmpdir(), 'svc-bench-cli-existing-'));
  try {
    const env = { ...process.env, SVC_HOME: home };
    const existingEnv = { ...process.env, SVC_HOME: existingHome };
    // What a person runs day to day: the database and the built-in registrations are there already
    // (a listing reads a new home's template and makes no database, so a command that does makes it).
    const made = spawnSync(process.execPath, [SVC_BIN, 'ext', 'list'], { env: existingEnv, encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`svc ext list exited ${made.status}: ${made.stderr}`);
    // The commands take turns, one run of each per round: on a machine whose load changes from one
    // second to the next, each figure and its baseline are then measured under the same load.
    const timeInTurns = (commands: { args: string[]; env?: NodeJS.ProcessEnv; fresh?: () => void }[]) => {
      const samples = commands.map(() => [] as number[]);
      // One unmeasured run of each first: the file cache and, where Node has it, the compile cache are warm.
      for (const command of commands) spawnSync(process.execPath, command.args, { env: command.env ?? env, stdio: 'ignore' });
      for (let i = 0; i < RUNS; i++) {
        commands.forEach(({ args, env: own, fresh }, k) => {
          fresh?.();
          const started = process.hrtime.bigint();
          const result = spawnSync(process.execPath, args, { env: own ?? env, encoding: 'utf8' });
          samples[k]!.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
        });
      }
      return samples.map(median);
    };
    // An empty home each time, as a person's first listing finds it: no database (the listing reads the
    // build's template and makes none; the first command that writes copies it in).
    const emptyHome = () => {
      for (const file of ['svc.db', 'svc.db-wal', 'svc.db-shm']) rmSync(join(home, file), { force: true });
    };
    const [baseline, version, taskList, taskListHome] = timeInTurns([
      { args: ['-e', ''] },
      { args: [SVC_BIN, '--version'] },
      { args: [SVC_BIN, 'task', 'list'], fresh: emptyHome },
      { args: [SVC_BIN, 'task', 'list'], env: existingEnv },
    ]) as [number, number, number, number];
    return [
      { name: `svc --version, median of ${RUNS} process runs`, unit: 'ms', ours: version, baseline, baselineName: 'node -e ""', ratio: version / baseline, goal: '≤ 1.5×' },
      { name: `svc task list (empty home), median of ${RUNS} process runs`, unit: 'ms', ours: taskList, baseline, baselineName: 'node -e ""', ratio: taskList / baseline, goal: '≤ 2×' },
      { name: `svc task list (existing home), median of ${RUNS} process runs`, unit: 'ms', ours: taskListHome, baseline, baselineName: 'node -e ""', ratio: taskListHome / baseline, goal: '≤ 2×' },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(existingHome, { recursive: true, force: true });
  }
}
